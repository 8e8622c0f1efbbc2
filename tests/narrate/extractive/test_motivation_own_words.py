"""Motivation in the report's own words: what the facts know of why (the class of bug fixed and
where it was reported, the PR whose code was at fault by git blame), then one quote at most as
evidence, the sentence that gives the cause when there is one; a bot's YAML block is nobody's
sentence. On a real git history, through sync, analysis and the report."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.pipeline.report import report_for
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/parser"
CODE = "src/parser/core.py"
WROTE, FIX, BUMP = 10, 11, 12

_CORE = """def first(items):
    return items[0]


def last(items):
    return items[-1]
"""
_FIX_BODY = (
    "Fixes #7.\n\n"
    "Parsing an empty document crashed the reader with an IndexError.\n"
    "The reader crashed because `first` indexed an empty list.\n"
    "Also tidies a docstring.\n\n"
    "The first parser came with #1.\n"
)
_BOT_BODY = """Bumps requests from 2.31 to 2.32.

---
updated-dependencies:
- dependency-name: requests
  dependency-version: '2.32'
  dependency-type: direct:production
  update-type: version-update:semver-minor
...
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("parser")
    repo = GitRepoBuilder(root / "repo")
    repo.commit({"README.md": "# parser\n", "requirements.txt": "requests==2.31\n"}, "Initial")
    repo.squash_pr(WROTE, "Add the item helpers", {CODE: _CORE})
    fixed = _CORE.replace("    return items[0]", "    return items[0] if items else None").replace(
        "    return items[-1]", "    return items[-1] if items else None"
    )
    repo.squash_pr(FIX, "Fix crash on an empty document", {CODE: fixed}, body=_FIX_BODY)
    repo.squash_pr(BUMP, "Bump requests from 2.31 to 2.32", {"requirements.txt": "requests==2.32\n"}, body=_BOT_BODY)
    return analyzed_history(repo, REPO, root / "parser.db")


def _motivation(store: Store, number: int, lang: str) -> str:
    return report_for(store, REPO, number, CATALOG.lang(lang), "full", None).motivation


def test_a_fix_says_its_problem_and_the_code_at_fault_in_its_own_words(store: Store) -> None:
    en = _motivation(store, FIX, "en")
    assert en.startswith("The problem it fixes is a crash, reported in #7."), en
    assert "The code at fault was written by #10" in en
    zh = _motivation(store, FIX, "zh")
    assert zh.startswith("它要解决的问题是崩溃，见 #7。"), zh
    assert "出问题的代码由 #10 写入" in zh
    assert "#7（" not in zh  # said once: not cited again
    assert "#1（" in zh  # a number that only begins one the own words name is still cited
    assert "#1 (" in en


@pytest.mark.parametrize(("lang", "open_quote"), [("en", "“"), ("zh", "「")])
def test_one_quote_at_most_the_one_that_gives_the_cause(store: Store, lang: str, open_quote: str) -> None:
    text = _motivation(store, FIX, lang)
    assert text.count(open_quote) == 1, text
    assert "because `first` indexed an empty list" in text
    assert "docstring" not in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bots_yaml_block_is_not_quoted(store: Store, lang: str) -> None:
    text = _motivation(store, BUMP, lang)
    assert "dependency-name" not in text, text
    assert "update-type" not in text
