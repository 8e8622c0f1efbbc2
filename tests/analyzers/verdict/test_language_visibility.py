"""A name is called public only where its language says so: Python by its ``_`` convention,
Go by case (``setField`` is not exported, ``SetField`` is), Rust by ``pub`` (not
``pub(crate)``), JavaScript and TypeScript by ``export``. Seen on a Go history: "adds 11
public names, among them `tomlBinding`, `decodeToml`" where every one was unexported. On a
real git history, through sync and analysis."""

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
UNEXPORTED, EXPORTED, REMOVED, JAVASCRIPT, RUST, TYPESCRIPT, RUST_REMOVED, COMMONJS = 1, 2, 3, 4, 5, 6, 7, 8
RUST_MOVE, RUST_MOVE_AND_TRAIT = 9, 10
SHAPES = ["Alpha", "Beta", "Gamma"]
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


def _rust(names: list[str]) -> str:
    lines = ["pub struct Values;", "", "impl Values {", "    fn check(&self) -> bool { true }", "}", ""]
    for i, name in enumerate(names):
        lines += [f"pub fn {name}(value: u32) -> u32 {{", f"    helper_{name}(value) + {i}", "}", ""]
        lines += [f"fn helper_{name}(value: u32) -> u32 {{", "    value", "}", ""]
    lines += ["pub(crate) fn internal() {}", ""]
    return "\n".join(lines)


def _typescript(names: list[str]) -> str:
    lines = []
    for i, name in enumerate(names):
        lines += [f"export function {name}(value: number): number {{", f"  return local{i}(value);", "}", ""]
        lines += [f"function local{i}(value: number): number {{", "  return value;", "}", ""]
    return "\n".join(lines)


def _shapes(names: list[str]) -> str:
    lines = []
    for i, name in enumerate(names):
        lines += [f"pub struct {name} {{", "    size: u32,", "}", "", f"impl {name} {{"]
        lines += ["    pub fn describe(&self) -> u32 {", f"        self.size * {i + 2} + {i}", "    }", "}", ""]
    return "\n".join(lines)


def _render_trait(names: list[str]) -> str:
    lines = ["pub trait Render {", "    fn render(&self) -> String;", "}", ""]
    for name in names:
        lines += [
            f"impl Render for {name} {{",
            "    fn render(&self) -> String {",
            f'        format!("{name} {{}}", self.describe())',
            "    }",
            "}",
            "",
        ]
    return "\n".join(lines)


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
    repo.squash_pr(RUST, "Add value helpers to the crate", {"src/values.rs": _rust(WORDS)})
    repo.squash_pr(TYPESCRIPT, "Add typed value helpers", {"web/values.ts": _typescript(WORDS)})
    kept = _rust(WORDS).replace("pub fn alpha", "fn alpha").replace("fn helper_beta", "pub fn helper_beta")
    commonjs = _javascript(WORDS) + "function hidden(value) {\n  return value;\n}\n"
    commonjs += "module.exports = {" + ", ".join(WORDS[:6]) + "};\n"
    commonjs += "".join(f"exports.{w} = {w};\n" for w in WORDS[6:])
    repo.squash_pr(COMMONJS, "Add value helpers to the CommonJS build", {"lib/values.js": commonjs})
    repo.squash_pr(RUST_REMOVED, "Make alpha private", {"src/values.rs": kept.replace("pub fn mu(", "fn mu_gone(")})
    repo.commit(
        {
            "src/shapes.rs": _shapes(SHAPES),
            "src/render.rs": "",
            "src/geometry.rs": _shapes(["Delta", "Omega", "Sigma"]),
        },
        "Shapes",
    )
    repo.squash_pr(
        RUST_MOVE, "Move the shapes", {"src/geometry.rs": "", "src/figures.rs": _shapes(["Delta", "Omega", "Sigma"])}
    )
    moved = {"src/shapes.rs": "", "src/render.rs": _shapes(SHAPES) + "\n" + _render_trait(SHAPES)}
    repo.squash_pr(RUST_MOVE_AND_TRAIT, "Add the Render trait", moved)
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


def test_a_javascript_function_not_exported_is_no_public_name(store: Store) -> None:
    facts = _facts(store, JAVASCRIPT)
    assert {"alpha", "mu"} <= {s.name for s in facts.symbols.symbols if s.change == "added"}
    assert "public-api" not in reason_codes(facts)


@pytest.mark.parametrize("number", [RUST, TYPESCRIPT, COMMONJS])
def test_pub_and_export_mark_the_public_names(store: Store, number: int) -> None:
    facts = _facts(store, number)
    added = [s for s in facts.symbols.symbols if s.change == "added"]
    assert len(added) > len(WORDS)  # the helpers and locals are seen too, ...
    reason = next(r for r in facts.verdict.reasons if r.code == "public-api")
    assert reason.items[0].params["count"] == str(len(WORDS) + (1 if number == RUST else 0))  # ... and `Values`


def test_a_rust_name_made_private_or_removed_is_public_api_removed(store: Store) -> None:
    facts = _facts(store, RUST_REMOVED)
    tag = next(t for t in facts.risks.tags if t.tag == "public-api-change")
    assert {item.params["symbol"] for item in tag.items} == {"mu"}  # `alpha` stays, now private


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
    assert is_public(name, kind, language, exported=True) is (public or language not in ("python", "go"))
    if language == "go":
        assert is_private(name, language) is not public


def test_a_rust_move_is_a_move_and_a_move_beside_new_trait_impls_is_not_only_that(store: Store) -> None:
    # The moves are counted against what callers can or may reach: a trait impl's methods,
    # whose reach the file does not tell, are new code beside the move.
    assert "move-only" in reason_codes(_facts(store, RUST_MOVE))
    facts = _facts(store, RUST_MOVE_AND_TRAIT)
    assert {"Alpha", "Alpha::describe"} <= {s.name for s in facts.symbols.symbols if s.change == "added"}
    assert "move-only" not in reason_codes(facts)
