"""A change that touches no line of code tells users no behaviour changed: "Users meet changed
behaviour in `load`" of a comment inside `load`, or of a reworded error message, would be
false (issue 26: no template that can contradict its line). On a real git history."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history, reason_codes, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.pipeline.report import report_for
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/loader"
SOURCE = "src/loader/core.py"
COMMENT, MESSAGE, CODE = 1, 2, 3

_CORE = """def load(path):
    # read the whole file
    with open(path) as handle:
        text = handle.read()
    if not text:
        raise ValueError("the file is empty")
    return text
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("loader")
    repo = GitRepoBuilder(root / "repo")
    repo.commit({"README.md": "# loader\n", SOURCE: _CORE}, "Initial")
    core = _CORE.replace("# read the whole file", "# read the whole file at once: they are small")
    repo.squash_pr(COMMENT, "Explain why the file is read at once", {SOURCE: core})
    core = core.replace("the file is empty", "the file holds no text")
    repo.squash_pr(MESSAGE, "Say which problem the loader met", {SOURCE: core})
    core = core.replace("    if not text:", "    if not text.strip():")
    repo.squash_pr(CODE, "Treat a blank file as empty", {SOURCE: core})
    return analyzed_history(repo, REPO, root / "loader.db")


def _users(store: Store, number: int, lang: str) -> str:
    return report_for(store, REPO, number, CATALOG.lang(lang), "full", None).risks.impact.users


def test_a_comment_change_tells_users_no_behaviour_changed(store: Store) -> None:
    assert reason_codes(stored_facts(store, REPO, COMMENT)) & {"comment-only", "no-core"}
    en = _users(store, COMMENT, "en")
    assert "users meet no other behaviour" in en
    assert "changed behaviour" not in en
    assert "用户不会遇到行为变化" in _users(store, COMMENT, "zh")


def test_a_reworded_message_is_other_wording_not_other_behaviour(store: Store) -> None:
    assert "messages-only" in reason_codes(stored_facts(store, REPO, MESSAGE))
    en = _users(store, MESSAGE, "en")
    assert "users see other wording, not other behaviour" in en
    assert "措辞变化" in _users(store, MESSAGE, "zh")


def test_a_code_change_still_names_the_changed_behaviour(store: Store) -> None:
    assert "Users of" in _users(store, CODE, "en")
    assert "changed behaviour in `load`" in _users(store, CODE, "en")
