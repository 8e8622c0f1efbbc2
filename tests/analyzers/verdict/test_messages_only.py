"""A change that rewords only the messages a program shows (an error text, a warning, a
prompt) is no core logic and owes no regression test, whatever its title says; a literal the
program compares, looks up, matches or keeps in a constant is behaviour. On a real git history,
through sync, analysis and the report."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history, reason_codes, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder
from tests.helpers.one_line import facts_clause

from prdigest.models.facts import Facts, VerdictLevel
from prdigest.pipeline.report import report_for
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/shop"
PATH = "src/shop/cart.py"
REWORDED, WITH_CODE, CONSTANT, COMPARED, MATCHED, QUERY = 1, 2, 3, 4, 5, 6


_PARTS = {
    "empty": "The cart is empty and cannot be checked out.",
    "warning": "Some items are out of stock and were left out",
    "limit": "10",
    "greeting": "Welcome back to the shop",
    "answer": "yes please go ahead",
    "prefix": "Order placed for the customer",
    "query": "SELECT id, name FROM items WHERE id = ?",
}


def _cart(**changed: str) -> str:
    p = {**_PARTS, **changed}
    return "\n".join(
        [
            "import logging",
            "",
            "log = logging.getLogger(__name__)",
            f"GREETING = {p['greeting']!r}",
            "",
            "",
            "def check_out(items, reply, line, db):",
            "    if not items:",
            f"        raise ValueError({p['empty']!r})",
            f"    if len(items) > {p['limit']}:",
            f"        log.warning({p['warning']!r})",
            f"    if reply == {p['answer']!r}:",
            "        return GREETING",
            f"    if line.startswith({p['prefix']!r}):",
            "        return line",
            f"    return db.run({p['query']!r})",
            "",
        ]
    )


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("shop")
    repo = GitRepoBuilder(root / "repo")
    repo.commit({"README.md": "# shop\n", PATH: _cart()}, "Initial")
    reworded = {"empty": "The cart has no items, so it cannot be checked out.", "warning": "Some items are sold out"}
    repo.squash_pr(REWORDED, "Clarify what check-out says", {PATH: _cart(**reworded)})
    repo.squash_pr(WITH_CODE, "Allow larger carts", {PATH: _cart(**reworded, limit="20")})
    again = {**reworded, "limit": "20"}
    repo.squash_pr(CONSTANT, "Greet returning buyers", {PATH: _cart(**again, greeting="Good to see you again")})
    repo.squash_pr(COMPARED, "Accept the new reply", {PATH: _cart(**again, answer="yes go ahead now")})
    repo.squash_pr(MATCHED, "Match the new order lines", {PATH: _cart(**again, prefix="Order created for the buyer")})
    repo.squash_pr(QUERY, "Read item titles", {PATH: _cart(**again, query="SELECT id, title FROM items WHERE id = ?")})
    return analyzed_history(repo, REPO, root / "shop.db")


def _facts(store: Store, number: int) -> Facts:
    return stored_facts(store, REPO, number)


def test_reworded_messages_are_no_core_logic_and_owe_no_test(store: Store) -> None:
    facts = _facts(store, REWORDED)
    assert [f.messages_only for f in facts.files.files if f.path == PATH] == [True]
    assert not facts.tests_ci.missing_tests
    assert "core-change" not in reason_codes(facts)
    reason = next(r for r in facts.verdict.reasons if r.code == "messages-only")
    assert reason.items[0].params == {"lines": "4"}
    assert facts.verdict.level is VerdictLevel.SKIP


def test_the_report_says_what_the_change_is(store: Store) -> None:
    en = report_for(store, REPO, REWORDED, CATALOG.lang("en"), "full", None)
    assert facts_clause(en.summary.one_line) == f"Rewords messages in `{PATH}`"
    assert "lines of core logic" not in en.summary.recommendation
    assert "messages" in en.summary.recommendation
    zh = report_for(store, REPO, REWORDED, CATALOG.lang("zh"), "full", None)
    assert zh.summary.one_line == f"修改 `{PATH}` 中的提示文字"


@pytest.mark.parametrize("number", [WITH_CODE, CONSTANT, COMPARED, MATCHED, QUERY])
def test_a_literal_the_program_uses_is_behaviour(store: Store, number: int) -> None:
    facts = _facts(store, number)
    assert [f.messages_only for f in facts.files.files if f.path == PATH] == [False]
    assert facts.tests_ci.missing_tests
    assert "core-change" in reason_codes(facts)
    assert "messages-only" not in reason_codes(facts)
