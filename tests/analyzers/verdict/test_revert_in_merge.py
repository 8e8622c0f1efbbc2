"""A release or branch merge whose commits include a revert of an earlier PR: its diff is all
of its commits, so the verdict does not say the revert "pulls back" the merge's lines. Seen
on a Go history: a 115-commit "v1.2" merge was told "undoes #942: 475 lines of core logic
are pulled back" for one commit reverting a license header. A PR that is the revert keeps
the size of what it undoes. On a real git history, through sync and analysis."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder
from tests.helpers.planner import plan_source

from prdigest.models.facts import Facts, VerdictReason
from prdigest.pipeline.report import report_for
from prdigest.render.formats import report_format
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/planner"
PLAN, SCHEDULE = "src/planner/plan.py", "src/planner/schedule.py"
STEPS, RELEASE, TASKS, REVERT = 1, 2, 3, 4


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("planner")
    repo = GitRepoBuilder(root / "repo")
    repo.commit({"README.md": "# planner\n", PLAN: plan_source(2)}, "Initial")
    steps = repo.squash_pr(STEPS, "Plan many steps", {PLAN: plan_source(200)})
    repo.merge_pr(
        RELEASE,
        "release",
        "Release 2.0",
        {SCHEDULE: plan_source(200, name="schedule")},
        extra_commits=[
            ({PLAN: plan_source(2)}, f'Revert "Plan many steps (#{STEPS})"\n\nThis reverts commit {steps}.')
        ],
    )
    tasks = repo.squash_pr(TASKS, "Plan more tasks", {PLAN: plan_source(180)})
    repo.squash_pr(
        REVERT, f'Revert "Plan more tasks (#{TASKS})"', {PLAN: plan_source(2)}, body=f"This reverts commit {tasks}."
    )
    return analyzed_history(repo, REPO, root / "planner.db")


def _lineage(facts: Facts) -> list[VerdictReason]:
    return [r for r in facts.verdict.reasons if r.code == "lineage"]


def test_a_revert_among_a_merge_s_commits_is_not_sized_by_the_merge(store: Store) -> None:
    facts = stored_facts(store, REPO, RELEASE)
    assert any(r.number == STEPS and r.relation == "reverts" for r in facts.references.references)
    (reason,) = _lineage(facts)
    assert reason.weight == 0.0
    assert [item.template for item in reason.items] == ["lineage.reverts-in-commits"]
    assert reason.items[0].params["count"] == "2"
    report = report_format("md").render(report_for(store, REPO, RELEASE, CATALOG.lang("en"), "full", None))
    assert "pulled back" not in report
    assert "In one line: Reverts #1" not in report  # the gist is the rest of the merge


def test_a_pr_that_is_the_revert_keeps_what_it_undoes(store: Store) -> None:
    (reason,) = _lineage(stored_facts(store, REPO, REVERT))
    assert [item.template for item in reason.items] == ["lineage.reverts-large"]
    assert reason.weight > 0
    report = report_format("md").render(report_for(store, REPO, REVERT, CATALOG.lang("en"), "full", None))
    assert "In one line: Reverts #3" in report
