"""The one-liner's verb comes from the title only where the title uses it as one: "optimizer" is
a thing, not "optimizes"; "only move the model when …" says what the code does, not that code
was moved (move, split, cache, reduce … count only as the title's first word); a word inside
code (`split_batches`) is a name. And "Refactors `f`" / "Fixes `f`" say `f` was there before: a
function the PR adds is said to be added, unless it moved from another file. On a real git
history, through sync, analysis and the report."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history
from tests.helpers.gitrepo import GitRepoBuilder
from tests.helpers.one_line import facts_clause

from prdigest.narrate.extractive.gist import action
from prdigest.pipeline.report import report_for
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/trainer"
CORE = "src/trainer/core.py"
HELP = "src/trainer/helpers.py"
ONLY_MOVE, OPTIMIZER, CODE_WORD, LEADING_MOVE, NEW_HELPER, MOVED, DELETED = 1, 2, 3, 4, 5, 6, 7

_CORE = """def place(model, device):
    return model.to(device)


def step(optimizer):
    optimizer.step()


def split_batches(batches, size):
    return [b[:size] for b in batches]


def fetch(loader):
    return next(iter(loader))


def parse_line(line):
    return line.split(",")
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("trainer")
    repo = GitRepoBuilder(root / "repo")
    repo.commit({"README.md": "# trainer\n", CORE: _CORE, HELP: "def noop():\n    return None\n"}, "Initial")
    placed = "    return model.to(device) if model.device != device else model"
    core = _CORE.replace("    return model.to(device)", placed)
    repo.squash_pr(ONLY_MOVE, "Only move the model when it is on another device", {CORE: core})
    core = core.replace("    optimizer.step()", "    if optimizer.state:\n        optimizer.step()")
    repo.squash_pr(OPTIMIZER, "Check the optimizer state before stepping", {CORE: core})
    core = core.replace("[b[:size] for b in batches]", "[b[:size] for b in batches if b]")
    repo.squash_pr(CODE_WORD, "`split_batches` for empty batches", {CORE: core})
    first = "    return _first(loader)\n\n\ndef _first(loader):\n    return next(iter(loader))"
    core = core.replace("    return next(iter(loader))", first)
    repo.squash_pr(LEADING_MOVE, "Move the first-item read into a helper", {CORE: core})
    helpers = "def noop():\n    return None\n\n\ndef batch_size(batches):\n    return max(len(b) for b in batches)\n"
    repo.squash_pr(
        NEW_HELPER,
        "Refactor sizing into a helper",
        {HELP: helpers, CORE: core.replace("    return [b[:size]", "    size = size or 1\n    return [b[:size]")},
    )
    parse = 'def parse_line(line):\n    return line.split(",")\n'
    core = core.replace('\n\ndef parse_line(line):\n    return line.split(",")\n', "")
    repo.squash_pr(MOVED, "Refactor parsing into its own module", {"src/trainer/parse.py": parse, CORE: core})
    # The fix deletes the helper that broke: nothing of it is left to be "fixed".
    repo.squash_pr(DELETED, "Fix the noop crash", {HELP: helpers.replace("def noop():\n    return None\n\n\n", "")})
    return analyzed_history(repo, REPO, root / "trainer.db")


def _one_line(store: Store, number: int, lang: str = "en") -> str:
    return facts_clause(report_for(store, REPO, number, CATALOG.lang(lang), "full", None).summary.one_line)


def test_a_word_further_in_the_title_that_tells_what_the_code_does_is_no_verb(store: Store) -> None:
    assert _one_line(store, ONLY_MOVE).startswith("Changes `place`")
    assert _one_line(store, OPTIMIZER).startswith("Changes `step`")


def test_a_word_inside_code_is_a_name(store: Store) -> None:
    assert _one_line(store, CODE_WORD).startswith("Changes `split_batches`")


def test_the_titles_first_word_still_names_the_kind(store: Store) -> None:
    assert _one_line(store, LEADING_MOVE).startswith("Refactors `fetch`")


def test_a_function_the_pr_adds_is_said_to_be_added(store: Store) -> None:
    assert _one_line(store, NEW_HELPER).startswith("Adds `batch_size`")
    assert not _one_line(store, NEW_HELPER, "zh").startswith("重构")


def test_a_function_moved_from_another_file_is_refactored(store: Store) -> None:
    assert _one_line(store, MOVED).startswith("Refactors ")


def test_a_fix_that_deletes_a_function_says_it_removes_it(store: Store) -> None:
    assert _one_line(store, DELETED).startswith("Removes `noop`")
    assert _one_line(store, DELETED, "zh").startswith("移除")


@pytest.mark.parametrize(
    ("title", "kind"),
    [
        ("Ignore permission errors when reading cache", "change"),
        ("Cache the parsed grammar", "improve"),
        ("Fix cache invalidation", "fix"),
        ("Speed up cache reads", "improve"),
    ],
)
def test_cache_is_an_improvement_only_as_the_verb(title: str, kind: str) -> None:
    assert action(title) == kind
