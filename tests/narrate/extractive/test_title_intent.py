"""A one-liner states the purpose: the title's intent (without its Conventional Commits type, a
leading emoji or the squash suffix), then what the facts say the change does. A title in
another language than the report's is left to the header; a subject GitHub wrote, a revert and
a title of one word lead with nothing. On a real git history, through sync, analysis and the
report."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history
from tests.helpers.gitrepo import GitRepoBuilder
from tests.helpers.one_line import facts_clause, intent_part

from prdigest.narrate.extractive.intent import lower_first, title_intent
from prdigest.pipeline.report import report_for
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/shop"
CART = "src/shop/cart.py"
TYPED, ZH_TITLE, GITHUB_SUBJECT, REVERT, BULLETS, DOCS, REQUIREMENT, WORD = 1, 2, 3, 4, 5, 6, 7, 8

_CART = """def total(items):
    return sum(item.price for item in items)


def count(items):
    return len(items)
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("shop")
    repo = GitRepoBuilder(root / "repo")
    repo.commit(
        {"README.md": "# shop\n", CART: _CART, "setup.py": _setup("requests>=2.20"), "CHANGES.md": "# Changes\n"},
        "Initial",
    )
    cart = _CART.replace("    return len(items)", "    if not items:\n        return 0\n    return len(items)")
    repo.squash_pr(TYPED, "🐛 fix(cart): count an empty basket as zero", {CART: cart})
    cart = cart.replace("sum(item.price for item in items)", "round(sum(item.price for item in items), 2)")
    repo.squash_pr(ZH_TITLE, "修复购物车总价的舍入误差", {CART: cart})
    cart = cart.replace("def count(items):", "def count(items):\n    # Empty baskets count as zero.")
    repo.squash_pr(GITHUB_SUBJECT, "Update src/shop/cart.py", {CART: cart})
    repo.squash_pr(
        REVERT,
        'Revert "Update src/shop/cart.py (#3)"',
        {CART: cart.replace("    # Empty baskets count as zero.\n", "")},
        body="Reverts #3",
    )
    cart = cart.replace("    # Empty baskets count as zero.\n", "")
    body = "- Add a currency to the totals\n- Drop the unused rounding helper\n- Tidy the tests\n"
    cart = cart.replace("def total(items):", "def total(items, currency='EUR'):")
    repo.squash_pr(BULLETS, "Price totals in a currency", {CART: cart}, body=body)
    docs = {f"docs/{name}.md": f"# {name}\n\nHow the {name} works.\n" for name in ("cart", "checkout", "refunds")}
    repo.squash_pr(DOCS, "docs: explain the basket life cycle", docs)
    repo.squash_pr(
        REQUIREMENT,
        "Require requests 2.31 for the proxy fix",
        {"setup.py": _setup("requests>=2.31"), "CHANGES.md": "# Changes\n\n- requests 2.31 or later\n"},
    )
    repo.squash_pr(WORD, "Cleanup", {CART: cart.replace("currency='EUR'", 'currency="EUR"')})
    return analyzed_history(repo, REPO, root / "shop.db")


def _setup(requirement: str) -> str:
    return f'from setuptools import setup\n\nsetup(name="shop", install_requires=["{requirement}"])\n'


def _one_line(store: Store, number: int, lang: str) -> str:
    return report_for(store, REPO, number, CATALOG.lang(lang), "full", None).summary.one_line


def test_the_titles_intent_leads_and_the_facts_follow(store: Store) -> None:
    line = _one_line(store, TYPED, "en")
    assert intent_part(line) == "Count an empty basket as zero"  # no emoji, no "fix(cart):"
    assert facts_clause(line).startswith("Fixes `count`"), line
    # An English title is not the Chinese reader's: the zh line is the facts' own sentence.
    zh = _one_line(store, TYPED, "zh")
    assert "empty basket" not in zh
    assert zh.startswith("修复"), zh


def test_a_title_in_the_readers_language_leads_only_for_that_reader(store: Store) -> None:
    zh = _one_line(store, ZH_TITLE, "zh")
    assert zh.startswith("修复购物车总价的舍入误差："), zh
    assert "`total`" in zh
    en = _one_line(store, ZH_TITLE, "en")
    assert "修复" not in en
    assert intent_part(en) is None, en


def test_a_subject_github_wrote_a_revert_and_one_word_lead_with_nothing(store: Store) -> None:
    assert intent_part(_one_line(store, GITHUB_SUBJECT, "en")) is None
    assert _one_line(store, REVERT, "en") == "Reverts #3"
    assert intent_part(_one_line(store, WORD, "en")) is None


def test_one_bullet_of_several_is_no_summary_of_the_whole(store: Store) -> None:
    line = _one_line(store, BULLETS, "en")
    assert "“Add a currency" not in line, line
    assert intent_part(line) == "Price totals in a currency"
    assert "`currency`" in facts_clause(line)


def test_a_one_liner_names_two_files_at_most(store: Store) -> None:
    # of three files, one is named and two counted: a third name would make a list
    en = facts_clause(_one_line(store, DOCS, "en"))
    assert en.endswith(" `docs/cart.md` and 2 more files"), en
    assert "checkout" not in en
    assert "refunds" not in en
    zh = _one_line(store, DOCS, "zh")
    assert zh.endswith(" `docs/cart.md` 等 3 个文件"), zh


def test_a_requirement_with_its_changelog_line_is_told_as_the_requirement(store: Store) -> None:
    en = _one_line(store, REQUIREMENT, "en")
    assert intent_part(en) == "Require requests 2.31 for the proxy fix"
    assert "`>=2.20` to `>=2.31`" in facts_clause(en), en
    assert "CHANGES.md" not in en
    zh = _one_line(store, REQUIREMENT, "zh")
    assert zh.startswith("将 requests 的约束由 `>=2.20` 提高为 `>=2.31`"), zh


@pytest.mark.parametrize(
    ("title", "intent"),
    [
        ("chore(deps)!: bump x from 1 to 2 (#12)", "Bump x from 1 to 2"),
        ("[Bugfix] fix: handle None.", "Handle None"),
        ("⬆️ Upgrade the parser", "Upgrade the parser"),
        ("route.md: add a wildcard example", "route.md: add a wildcard example"),  # a name keeps its case
        ("windows: fix path handling", "Windows: fix path handling"),  # the area is kept
        ("v1.2", None),
        ("Merge branch 'main' into feature", None),
        ("修复缓存问题", "修复缓存问题"),
    ],
)
def test_title_intent(title: str, intent: str | None) -> None:
    assert title_intent(title) == intent


def test_lower_first_keeps_a_word_in_capitals() -> None:
    assert lower_first("Changes `f`") == "changes `f`"
    assert lower_first("CI runs nightly") == "CI runs nightly"
