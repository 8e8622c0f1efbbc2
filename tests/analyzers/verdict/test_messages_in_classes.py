"""The message check reads a class member by member: a reworded message inside one method of
a class is still a message-only change, while a literal the class keeps (a class keyword) or
one a sibling method compares with still counts as behaviour when it changes alongside.
On a real git history, through sync and analysis."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.store import Store

REPO = "example-org/till"
PATH = "src/till/register.py"
REWORDED, KEYWORD, COMPARED, TOP_LEVEL = 1, 2, 3, 4

_PARTS = {
    "label": "the main till of the shop",
    "empty": "The till holds no items and cannot be closed.",
    "answer": "yes close it now",
    "hint": "Count the coins before the notes",
}


def _register(**changed: str) -> str:
    p = {**_PARTS, **changed}
    return "\n".join(
        [
            '"""The till."""',
            "",
            "import logging",
            "",
            "log = logging.getLogger(__name__)",
            "",
            "",
            f"class Register(dict, label={p['label']!r}):",
            '    """One till."""',
            "",
            "    def close(self, items):",
            "        if not items:",
            f"            raise ValueError({p['empty']!r})",
            "        return len(items)",
            "",
            "    def confirm(self, reply):",
            f"        return reply == {p['answer']!r}",
            "",
            "",
            "def count(coins):",
            f"    log.info({p['hint']!r})",
            "    return sum(coins)",
            "",
        ]
    )


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("till")
    repo = GitRepoBuilder(root / "repo")
    repo.commit({"README.md": "# till\n", PATH: _register()}, "Initial")
    reworded = {"empty": "Nothing is in the till, so it cannot be closed yet."}
    repo.squash_pr(REWORDED, "Clarify what closing says", {PATH: _register(**reworded)})
    repo.squash_pr(KEYWORD, "Rename the till", {PATH: _register(**reworded, label="the second till of the shop")})
    keyword = {**reworded, "label": "the second till of the shop"}
    repo.squash_pr(COMPARED, "Accept another reply", {PATH: _register(**keyword, answer="yes please close it")})
    compared = {**keyword, "answer": "yes please close it"}
    hint = "Count the notes before the coins"
    repo.squash_pr(TOP_LEVEL, "Say how to count", {PATH: _register(**compared, hint=hint)})
    return analyzed_history(repo, REPO, root / "till.db")


@pytest.mark.parametrize(
    ("number", "expected"), [(REWORDED, True), (KEYWORD, False), (COMPARED, False), (TOP_LEVEL, True)]
)
def test_a_class_is_read_member_by_member(store: Store, number: int, expected: bool) -> None:
    facts = stored_facts(store, REPO, number)
    assert [f.messages_only for f in facts.files.files if f.path == PATH] == [expected]
