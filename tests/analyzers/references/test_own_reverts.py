"""A squash commit lists the branch's commits; a "Revert" among them that takes back an earlier
step of the same branch reverts nothing of the base: no revert, no "undoes" verdict, no revert
risk, and the regression-test check still applies. A PR that reverts a commit of the base stays
a revert. On a real git history, through sync and analysis."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history, reason_codes, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder
from tests.helpers.planner import plan_source

from prdigest.models.facts import Facts
from prdigest.store import Store

REPO = "example-org/planner"
PATH = "src/planner/plan.py"
OWN_REVERT, BASE_REVERT, FEATURE = 1, 3, 2


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("planner")
    repo = GitRepoBuilder(root / "repo")
    repo.commit({"README.md": "# planner\n", PATH: plan_source(2)}, "Initial")
    # The branch tried a change, took it back (git's revert message), then did it another way.
    body = (
        "* Plan more steps\n\n"
        "* Use a fallback plan\n\n"
        '* Revert "Use a fallback plan"\n\n'
        "This reverts commit 0123456789abcdef0123456789abcdef01234567.\n\n"
        "* Plan a fallback when nothing fits\n"
    )
    repo.squash_pr(OWN_REVERT, "Plan more steps with a fallback", {PATH: plan_source(60, fallback=True)}, body=body)
    feature = repo.squash_pr(FEATURE, "Drop the fallback plan", {PATH: plan_source(60)})
    repo.squash_pr(
        BASE_REVERT,
        "Bring the fallback plan back",
        {PATH: plan_source(60, fallback=True)},
        body=f'* Revert "Drop the fallback plan"\n\nThis reverts commit {feature}.\n',
    )
    return analyzed_history(repo, REPO, root / "planner.db")


def _facts(store: Store, number: int) -> Facts:
    return stored_facts(store, REPO, number)


def test_a_step_its_own_branch_took_back_is_no_revert(store: Store) -> None:
    facts = _facts(store, OWN_REVERT)
    assert facts.references.reverted_commits == []
    assert "lineage" not in reason_codes(facts)
    assert all(tag.tag != "revert" for tag in facts.risks.tags)
    # A change of behaviour without a test: the check a revert is spared applies.
    assert facts.tests_ci.missing_tests


def test_a_revert_of_a_base_commit_stays_a_revert(store: Store) -> None:
    facts = _facts(store, BASE_REVERT)
    assert len(facts.references.reverted_commits) == 1
    assert any(tag.tag == "revert" for tag in facts.risks.tags)
    assert not facts.tests_ci.missing_tests
