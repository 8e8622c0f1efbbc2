"""Commit messages GitHub writes itself ("Apply suggestions from code review", "Update
src/pool/client.py" from the web editor, "Merge branch 'main' into …") are no words of the
author: a squash commit lists them, the report never quotes them as a motivation or as the why
of a step. And "Changes `f`" says `f` was there: a function the PR adds is said to be added.
On a real git history, through sync, analysis and the report."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history
from tests.helpers.gitrepo import GitRepoBuilder
from tests.helpers.one_line import facts_clause

from prdigest.models.report import Report
from prdigest.pipeline.report import report_for
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/pool"
CLIENT = "src/pool/client.py"
RETRY = 1
_GENERATED = ("Apply suggestions from code review", f"Update {CLIENT}", "Merge branch 'main' into retry")

_BEFORE = "def get(url):\n    return url\n"
_AFTER = _BEFORE + (
    "\n\ndef get_with_retry(url, attempts):\n"
    "    for _ in range(attempts):\n"
    "        found = get(url)\n"
    "        if found:\n"
    "            return found\n"
    "    return None\n"
)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("pool")
    repo = GitRepoBuilder(root / "repo")
    repo.commit({"README.md": "# pool\n", CLIENT: _BEFORE}, "Initial")
    body = "\n\n".join(
        [
            "* Apply suggestions from code review",
            f"* Update {CLIENT}",
            "* Retry the request a given number of times before giving up",
            "* Merge branch 'main' into retry",
        ]
    )
    repo.squash_pr(RETRY, "Better control over flaky requests", {CLIENT: _AFTER}, body=body)
    return analyzed_history(repo, REPO, root / "pool.db")


def _report(store: Store, lang: str) -> Report:
    return report_for(store, REPO, RETRY, CATALOG.lang(lang), "full", None)


def _said(report: Report) -> str:
    steps = " ".join(f"{s.title} {s.detail}" for s in report.implementation)
    return " ".join([report.summary.one_line, report.motivation, steps])


def test_githubs_own_commit_messages_are_never_quoted(store: Store) -> None:
    for lang in ("en", "zh"):
        said = _said(_report(store, lang))
        assert "Retry the request a given number of times" in said
        for generated in _GENERATED:
            assert generated not in said


def test_a_function_the_pr_adds_is_not_said_to_be_changed(store: Store) -> None:
    assert facts_clause(_report(store, "en").summary.one_line).startswith("Adds `get_with_retry`")
