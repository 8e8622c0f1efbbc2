"""A report that says "`f` now raises `X`" says `f` did not raise `X` before: a rewrite that raises the same
exception from two places where it raised it from one, or catches again what it already caught,
is no new raise or handler; an exception the function never raised is. On a real git history,
through sync, analysis and the report."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.models.facts import Facts
from prdigest.pipeline.report import report_for
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/sizes"
PATH = "src/sizes/parse.py"
SAME_EXCEPTION, NEW_EXCEPTION = 1, 2

_BEFORE = """def parse_size(text):
    try:
        if text.endswith("KB"):
            return int(text[:-2]) * 1000
        return int(text)
    except TypeError:
        return 0
    raise ValueError("not a size")
"""

# The same ValueError, now raised from two places, and the same TypeError caught twice.
_SAME = """def parse_size(text):
    try:
        size = int(float(text[:-2]) * 1000) if text.endswith("KB") else int(text)
    except TypeError:
        return 0
    except ValueError:
        raise ValueError("not a size")
    if size <= 0:
        raise ValueError("not a size")
    try:
        return size
    except TypeError:
        return 0
"""

_LIMIT = "    if size > 2**40:\n        raise OverflowError(text)\n"
_NEW = _SAME.replace("    if size <= 0:\n", _LIMIT + "    if size <= 0:\n")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("sizes")
    repo = GitRepoBuilder(root / "repo")
    repo.commit({"README.md": "# sizes\n", PATH: _BEFORE}, "Initial")
    repo.squash_pr(SAME_EXCEPTION, "Accept fractional sizes", {PATH: _SAME})
    repo.squash_pr(NEW_EXCEPTION, "Refuse sizes past a terabyte", {PATH: _NEW})
    return analyzed_history(repo, REPO, root / "sizes.db")


def _edits(facts: Facts) -> set[tuple[str, str]]:
    return {(e.kind, e.params.get("exception", "")) for e in facts.symbols.edits}


def test_the_same_exception_raised_from_one_more_place_is_no_new_raise(store: Store) -> None:
    edits = _edits(stored_facts(store, REPO, SAME_EXCEPTION))
    assert ("raise-added", "ValueError") not in edits
    assert ("exception-handler-added", "TypeError") not in edits
    # ValueError was raised before and is now also caught: a handler it did not have.
    assert ("exception-handler-added", "ValueError") in edits
    en = report_for(store, REPO, SAME_EXCEPTION, CATALOG.lang("en"), "full", None)
    assert "now raises `ValueError`" not in en.summary.one_line
    assert "now catches `ValueError`" in en.summary.one_line


def test_an_exception_the_function_never_raised_is_a_new_raise(store: Store) -> None:
    edits = _edits(stored_facts(store, REPO, NEW_EXCEPTION))
    assert ("raise-added", "OverflowError") in edits
    assert ("raise-added", "ValueError") not in edits
