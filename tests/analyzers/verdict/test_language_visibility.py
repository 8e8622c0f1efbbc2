"""A name is called public only where its language says so by the name: Python by its ``_``
convention, Go by case (``setField`` is not exported, ``SetField`` is). Where a keyword
decides (JavaScript's ``export``, Rust's ``pub``) the facts keep no such mark, so no name is
called public there. Seen on a Go history: "adds 11 public names, among them
`tomlBinding`, `decodeToml`" where every one was unexported. On a real git history, through
sync and analysis."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history, reason_codes, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.analyzers.symbol_names import is_private, is_public
from prdigest.models.facts import Facts
from prdigest.pipeline.report import report_for
from prdigest.render.formats import report_format
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/webkit"
UNEXPORTED, EXPORTED, REMOVED, JAVASCRIPT = 1, 2, 3, 4
WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"]


def _go(names: list[str]) -> str:
    lines = ["package binding", "", "type tomlCodec struct{}", ""]
    lines += ["func (tomlCodec) Name() string {", '\treturn "toml"', "}", ""]
    for i, name in enumerate(names):
        lines += [f"func {name}(value int) int {{", f"\treturn value + {i}", "}", ""]
    return "\n".join(lines)


def _javascript(names: list[str]) -> str:
    return "\n".join(f"function {name}(value) {{\n  return value + {i};\n}}\n" for i, name in enumerate(names))


RENDER = (
    "package render\n\nfunc Render(w int) int {\n\treturn w + 1\n}\n\nfunc renderPlain(w int) int {\n\treturn w\n}\n"
)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("webkit")
    repo = GitRepoBuilder(root / "repo")
    repo.commit(
        {"README.md": "# webkit\n", "go.mod": "module example.org/webkit\n\ngo 1.21\n", "render/render.go": RENDER},
        "Initial",
    )
    repo.squash_pr(UNEXPORTED, "Add toml binding", {"binding/toml.go": _go([f"decode{w.title()}" for w in WORDS])})
    repo.squash_pr(EXPORTED, "Add value helpers", {"values/values.go": _go([f"Value{w.title()}" for w in WORDS])})
    repo.squash_pr(REMOVED, "Drop the render package", {"render/render.go": "package render\n"})
    repo.squash_pr(JAVASCRIPT, "Add value helpers to the site", {"site/values.js": _javascript(WORDS)})
    return analyzed_history(repo, REPO, root / "webkit.db")


def _facts(store: Store, number: int) -> Facts:
    return stored_facts(store, REPO, number)


def test_unexported_go_names_are_no_public_names(store: Store) -> None:
    facts = _facts(store, UNEXPORTED)
    added = {s.name for s in facts.symbols.symbols if s.change == "added"}
    assert {"decodeAlpha", "tomlCodec", "tomlCodec.Name"} <= added  # seen, ...
    assert "public-api" not in reason_codes(facts)  # ... but none is exported
    report = report_for(store, REPO, UNEXPORTED, CATALOG.lang("en"), "full", None)
    assert "public name" not in report_format("md").render(report).lower()


def test_exported_go_names_count(store: Store) -> None:
    reason = next(r for r in _facts(store, EXPORTED).verdict.reasons if r.code == "public-api")
    # the twelve functions; the method of the unexported `tomlCodec` is no public name
    assert reason.items[0].params["count"] == str(len(WORDS))


def test_only_an_exported_go_name_removed_is_public_api(store: Store) -> None:
    facts = _facts(store, REMOVED)
    removed = {s.name for s in facts.symbols.symbols if s.change == "removed"}
    assert removed == {"Render", "renderPlain"}
    tag = next(t for t in facts.risks.tags if t.tag == "public-api-change")
    assert {item.params["symbol"] for item in tag.items} == {"Render"}


def test_where_a_keyword_decides_no_name_is_called_public(store: Store) -> None:
    facts = _facts(store, JAVASCRIPT)
    assert {"alpha", "mu"} <= {s.name for s in facts.symbols.symbols if s.change == "added"}
    assert "public-api" not in reason_codes(facts)


@pytest.mark.parametrize(
    ("name", "kind", "language", "public"),
    [
        ("Client.send", "method", "python", True),
        ("_helper", "function", "python", False),
        ("build.step", "function", "python", False),
        ("Server.Start", "method", "go", True),
        ("server.Start", "method", "go", False),
        ("setField", "function", "go", False),
        ("init", "function", "go", False),
        ("Render", "function", "go", True),
        ("render", "function", "javascript", False),
        ("Renderer::draw", "method", "rust", False),
        ("Render", "function", None, False),
    ],
)
def test_public_by_the_language_rule(name: str, kind: str, language: str | None, public: bool) -> None:
    assert is_public(name, kind, language) is public
    if language == "go":
        assert is_private(name, language) is not public
