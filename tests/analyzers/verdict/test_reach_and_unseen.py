"""What the verdict says of names and of discussion rests on what a caller can reach and on what
the source fetched: a closure (a decorator's inner function) or a member of a private class is
no public name; a git history holds no reviews, so a version bump is not said to have had "no
discussion"; code a documentation site includes (docs_src/) is an example and a "<x>_tests/"
folder holds tests, neither is core logic. On a real git history, through sync and analysis."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history, reason_codes, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.models.facts import Facts, VerdictLevel
from prdigest.pipeline.report import report_for
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/hooks"
APP = "src/hooks/app.py"
CLOSURES, PRIVATE, PUBLIC, BUMP, DOC_EXAMPLE, OLD_TESTS, SHOWN = 1, 2, 3, 4, 5, 6, 7
PROMPT = "return the users as json, and make no mistakes"


def _decorators(names: list[str]) -> str:
    """A class whose methods each return an inner ``decorator`` closure."""
    lines = ["class App:", "    def __init__(self):", "        self.hooks = {}", ""]
    for name in names:
        lines += [
            f"    def {name}(self, key):",
            "        def decorator(func):",
            f"            self.hooks[({name!r}, key)] = func",
            "            return func",
            "",
            "        return decorator",
            "",
        ]
    return "\n".join(lines)


def _private_class(names: list[str]) -> str:
    lines = ["class _Registry:", "    def __init__(self):", "        self.items = []", ""]
    for name in names:
        lines += [f"    def {name}(self, item):", f"        self.items.append(({name!r}, item))", ""]
    return "\n".join(lines)


def _functions(names: list[str]) -> str:
    return "\n".join(f"def {name}(value):\n    return value + {i}\n\n" for i, name in enumerate(names))


def _guarded(path: str) -> str:
    return "\n".join(
        [
            "def verify_token(token):",
            "    if not token:",
            f"        raise ValueError('a token is required by {path}')",
            "    return token",
            "",
            "",
            "def read_items(token):",
            "    return [verify_token(token)]",
            "",
        ]
    )


HOOKS = ["on_start", "on_stop", "on_error", "on_request", "on_response", "on_close"]
WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda_", "mu"]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("hooks")
    repo = GitRepoBuilder(root / "repo")
    repo.commit(
        {
            "README.md": "# hooks\n",
            APP: "class App:\n    def __init__(self):\n        self.hooks = {}\n",
            "requirements.txt": "requests==2.31.0\n",
            "docs_src/tutorial/guard.py": _guarded("docs_src/tutorial/guard.py"),
            "pending_tests/main.py": _guarded("pending_tests/main.py"),
        },
        "Initial",
    )
    repo.squash_pr(CLOSURES, "Add hook decorators", {APP: _decorators(HOOKS)})
    repo.squash_pr(PRIVATE, "Add an internal registry", {"src/hooks/registry.py": _private_class(WORDS)})
    repo.squash_pr(PUBLIC, "Add value helpers", {"src/hooks/values.py": _functions(WORDS)})
    repo.squash_pr(BUMP, "Bump requests from 2.31.0 to 2.32.0", {"requirements.txt": "requests==2.32.0\n"})
    repo.squash_pr(DOC_EXAMPLE, "Remove an old tutorial example", {"docs_src/tutorial/guard.py": None})
    repo.squash_pr(OLD_TESTS, "Remove old pending tests", {"pending_tests/main.py": None})
    example = f"from hooks.vibe import ask\n\nprint(ask({PROMPT!r}))\n"
    library = f'def ask(prompt):\n    """Answer a prompt such as {PROMPT!r}."""\n    return prompt\n\n\n'
    library += f"DEFAULT = {PROMPT!r}\n"
    repo.squash_pr(SHOWN, "Add ask", {"examples/vibe.py": example, "src/hooks/vibe.py": library})
    return analyzed_history(repo, REPO, root / "hooks.db")


def _facts(store: Store, number: int) -> Facts:
    return stored_facts(store, REPO, number)


def test_closures_are_no_public_names(store: Store) -> None:
    facts = _facts(store, CLOSURES)
    added = {s.name for s in facts.symbols.symbols if s.change == "added"}
    assert "App.on_start.decorator" in added  # the symbol is seen, ...
    assert "public-api" not in reason_codes(facts)  # ... but 6 methods are not 12 public names


def test_members_of_a_private_class_are_no_public_names(store: Store) -> None:
    assert "public-api" not in reason_codes(_facts(store, PRIVATE))


def test_public_functions_still_count(store: Store) -> None:
    reason = next(r for r in _facts(store, PUBLIC).verdict.reasons if r.code == "public-api")
    assert reason.items[0].params["count"] == str(len(WORDS))


def test_a_bump_seen_in_git_is_not_said_to_have_had_no_discussion(store: Store) -> None:
    facts = _facts(store, BUMP)
    assert not facts.coverage.review_data
    reason = next(r for r in facts.verdict.reasons if r.code == "bump-only")
    assert [i.template for i in reason.items] == ["bump-only.versions"]
    en = report_for(store, REPO, BUMP, CATALOG.lang("en"), "full", None).summary.recommendation
    assert "only bumps versions" in en
    assert "discussion" not in en
    zh = report_for(store, REPO, BUMP, CATALOG.lang("zh"), "full", None).summary.recommendation
    assert "只是版本号提升" in zh
    assert "讨论" not in zh


@pytest.mark.parametrize(("number", "category"), [(DOC_EXAMPLE, "example"), (OLD_TESTS, "test")])
def test_docs_source_and_pending_tests_are_no_core_logic(store: Store, number: int, category: str) -> None:
    facts = _facts(store, number)
    assert {f.category for f in facts.files.files} == {category}
    assert "design-trap" not in reason_codes(facts)  # removing an example's check harms no user
    assert "error-message-regression" not in {t.tag for t in facts.risks.tags}
    assert facts.verdict.level is VerdictLevel.SKIP


def test_an_example_repeating_a_library_value_is_no_duplicated_logic(store: Store) -> None:
    facts = _facts(store, SHOWN)
    assert "duplicated-logic-across-files" not in {t.tag for t in facts.risks.tags}
    assert "design-trap" not in reason_codes(facts)
