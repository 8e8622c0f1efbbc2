"""A PR whose complete file list is empty (an empty commit, or a merge whose changes were
already on the main line) says so: its verdict read "no core logic changes, only  files" and
its Chinese one-liner was the English title. Seen on a JavaScript history (3 of 813 PRs). On
a real git history, through sync and analysis."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.pipeline.report import report_for
from prdigest.render.formats import report_format
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/site"
EMPTY = 4


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("site")
    repo = GitRepoBuilder(root / "repo")
    repo.commit({"README.md": "# site\n"}, "Initial")
    repo.squash_pr(EMPTY, "Release/v0.22.0", {})
    return analyzed_history(repo, REPO, root / "site.db")


def test_a_pr_that_changes_no_file_says_so(store: Store) -> None:
    facts = stored_facts(store, REPO, EMPTY)
    assert facts.files.files == []
    assert facts.coverage.file_list == "complete"
    assert [r.code for r in facts.verdict.reasons] == ["no-files"]
    en = report_format("md").render(report_for(store, REPO, EMPTY, CATALOG.lang("en"), "full", None))
    assert "In one line: Changes no file" in en
    assert "only  files" not in en
    zh = report_format("md").render(report_for(store, REPO, EMPTY, CATALOG.lang("zh"), "full", None))
    assert "一句话：没有改动任何文件" in zh
