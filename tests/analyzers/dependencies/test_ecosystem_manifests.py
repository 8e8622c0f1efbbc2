"""go.mod, Cargo.toml and package.json read for what they require, on a real git history
(tests.helpers.ecosystems_history) through sync and analysis: which package moved, from what to
what, which versions that admits or excludes by the ecosystem's own rules (Go's minimum
versions, Cargo's caret default, npm ranges), who installs it; a re-formatted manifest changes
nothing, a broken one is said to be unparsable. The one-liner tells it in both languages."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history, stored_facts
from tests.helpers.ecosystems_history import (
    BAD_CARGO,
    BAD_NPM,
    CARGO_CARET,
    CARGO_PATH,
    CARGO_TABLE,
    GO_DIRECT,
    GO_INDIRECT,
    NPM_DEPENDENCY,
    NPM_DEV,
    NPM_PATH,
    REFORMAT,
    REPO,
    build_ecosystems_history,
)

from prdigest.models.facts import DependencyChange
from prdigest.pipeline.analyze_selected import AnalyzeRequest, analyze_selected
from prdigest.pipeline.ledger import package_history, package_list
from prdigest.pipeline.report import report_for
from prdigest.pipeline.sync import sync_source
from prdigest.render.formats import report_format
from prdigest.sources.git import GitSource, GitSyncOptions
from prdigest.store import Store
from prdigest.words import CATALOG


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("polyglot")
    return analyzed_history(build_ecosystems_history(root / "repo"), REPO, root / "polyglot.db")


def _only_change(store: Store, number: int) -> DependencyChange:
    facts = stored_facts(store, REPO, number)
    assert facts.dependencies.findings == []  # read, so not "unread-format"
    (change,) = facts.dependencies.changes
    return change


def _one_line(store: Store, number: int, lang: str) -> str:
    return report_for(store, REPO, number, CATALOG.lang(lang), "brief", None).summary.one_line


@pytest.mark.parametrize(
    ("number", "package", "group", "before", "after", "excluded"),
    [
        (GO_DIRECT, "github.com/example/router", "require", "v1.4.0", "v1.5.2", ["v1.4.0"]),
        (GO_INDIRECT, "golang.org/x/text", "indirect", "v0.14.0", "v0.15.0", ["v0.14.0"]),
    ],
)
def test_a_go_requirement_raised_is_a_new_minimum(
    store: Store, number: int, package: str, group: str, before: str, after: str, excluded: list[str]
) -> None:
    change = _only_change(store, number)
    assert (change.path, change.package, change.source_kind) == ("go.mod", package, "go")
    assert (change.before, change.after) == (f"{package} {before}", f"{package} {after}")
    assert change.kinds == ["floor-raised"]
    assert (change.group, change.scope) == (group, "runtime")
    # a minimum: the old one is no longer selectable, nothing newer was shut out
    assert change.newly_excluded == excluded
    assert change.newly_admitted == []
    assert f"raises the {package} constraint from `{before}` to `{after}`" in _one_line(store, number, "en").lower()
    assert f"将 {package} 的约束由 `{before}` 提高为 `{after}`" in _one_line(store, number, "zh")


def test_a_cargo_caret_requirement_raised(store: Store) -> None:
    change = _only_change(store, CARGO_CARET)
    assert (change.path, change.package, change.source_kind) == (CARGO_PATH, "serde", "cargo")
    assert (change.before, change.after) == ("serde 1.0.100", "serde 1.0.190")
    # "1.0.100" is ^1.0.100: the floor rose, the cap (2.0.0) stayed
    assert change.kinds == ["floor-raised"]
    assert change.newly_excluded == ["1.0.100"]
    assert (change.group, change.scope) == ("dependencies", "runtime")
    assert "`1.0.100` to `1.0.190`" in _one_line(store, CARGO_CARET, "en")
    assert "将 serde 的约束由 `1.0.100` 提高为 `1.0.190`" in _one_line(store, CARGO_CARET, "zh")


def test_a_cargo_table_version_raised(store: Store) -> None:
    change = _only_change(store, CARGO_TABLE)
    assert (change.package, change.before, change.after) == ("serde_json", "serde_json 1.0.96", "serde_json 1.0.108")
    assert change.kinds == ["floor-raised"]
    assert change.newly_excluded == ["1.0.96"]
    assert "将 serde_json 的约束由 `1.0.96` 提高为 `1.0.108`" in _one_line(store, CARGO_TABLE, "zh")
    # the ledger knows the crate by its canonical name, and tells the versions without it
    report = report_format("md").render(report_for(store, REPO, CARGO_TABLE, CATALOG.lang("en"), "full", None))
    assert "serde_json in crates/core/Cargo.toml: `1.0.96` → `1.0.108`" in report


def test_an_npm_range_raised_in_dependencies(store: Store) -> None:
    change = _only_change(store, NPM_DEPENDENCY)
    assert (change.path, change.package, change.source_kind) == (NPM_PATH, "left-pad", "npm")
    assert (change.before, change.after) == ("left-pad ^1.2.0", "left-pad ^1.3.0")
    assert change.kinds == ["floor-raised"]
    assert change.newly_excluded == ["1.2.0"]
    assert (change.group, change.scope) == ("dependencies", "runtime")
    for lang in ("en", "zh"):
        line = _one_line(store, NPM_DEPENDENCY, lang)
        assert "left-pad" in line
        assert "`^1.2.0`" in line
        assert "`^1.3.0`" in line


def test_an_npm_dev_range_widened(store: Store) -> None:
    change = _only_change(store, NPM_DEV)
    assert (change.package, change.before, change.after) == ("jest", "jest ~29.1.0", "jest ^29.7.0")
    # ~29.1.0 is the 29.1 series; ^29.7.0 is 29.7.0 up to 30: both bounds moved up
    assert change.kinds == ["cap-relaxed", "floor-raised"]
    assert change.newly_admitted == ["29.7.0"]
    assert change.newly_excluded == ["29.1.0"]
    assert (change.group, change.scope) == ("devDependencies", "dev")
    assert "将 jest 的约束由 `~29.1.0` 提高为 `^29.7.0`" in _one_line(store, NPM_DEV, "zh")


def test_a_reformatted_manifest_changes_nothing(store: Store) -> None:
    facts = stored_facts(store, REPO, REFORMAT)
    assert facts.dependencies.changes == []
    assert facts.dependencies.findings == []


@pytest.mark.parametrize(("number", "reason"), [(BAD_CARGO, "not valid TOML"), (BAD_NPM, "not valid JSON")])
def test_a_broken_manifest_is_unparsable(store: Store, number: int, reason: str) -> None:
    facts = stored_facts(store, REPO, number)
    path = CARGO_PATH if number == BAD_CARGO else NPM_PATH
    assert facts.dependencies.changes == []
    (finding,) = facts.dependencies.findings
    assert (finding.kind, finding.paths) == ("unparsable", [path])
    assert reason in finding.detail
    assert "new text" in finding.detail
    for lang, said in (("en", "declares dependencies prdigest cannot parse"), ("zh", "无法解析的依赖声明")):
        report = report_format("md").render(report_for(store, REPO, number, CATALOG.lang(lang), "full", None))
        assert said in report
        assert "No direct effect on users" not in report
        assert "对用户无直接影响" not in report


@pytest.fixture(scope="module")
def without_texts(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """The same history synced without the files' whole texts (``sync git --no-contents``)."""
    root = tmp_path_factory.mktemp("polyglot-patches")
    repo = build_ecosystems_history(root / "repo")
    store = Store.open(f"sqlite:///{root / 'polyglot.db'}")
    sync_source(store, GitSource(repo.path, GitSyncOptions(repository=REPO, with_contents=False)))
    assert analyze_selected(store, AnalyzeRequest()).failed == []
    return store


def test_without_the_whole_texts_a_go_mod_is_read_from_its_diff(without_texts: Store) -> None:
    # a go.mod line is one requirement, its block header outside the hunk or not
    for number, package in ((GO_DIRECT, "github.com/example/router"), (GO_INDIRECT, "golang.org/x/text")):
        change = _only_change(without_texts, number)
        assert (change.package, change.kinds, change.source_kind) == (package, ["floor-raised"], "go")
    # TOML and JSON are documents: no piece of one is read, and the report says so
    for number, path in ((CARGO_CARET, CARGO_PATH), (NPM_DEPENDENCY, NPM_PATH)):
        facts = stored_facts(without_texts, REPO, number)
        assert facts.dependencies.changes == []
        assert [(f.kind, f.paths) for f in facts.dependencies.findings] == [("unread-format", [path])]


def test_the_ledger_keeps_a_module_path_as_written(store: Store) -> None:
    # a Go module's dots are part of its name: golang.org/x/text is not golang-org/x/text
    history = package_history(store, REPO, "golang.org/x/text")
    assert [(e.number, e.before, e.after) for e in history.entries] == [
        (GO_INDIRECT, "golang.org/x/text v0.14.0", "golang.org/x/text v0.15.0")
    ]
    assert "golang.org/x/text" in {p.package for p in package_list(store, REPO)}
    # a Python-like name is still canonical: Left_Pad finds left-pad
    assert [e.number for e in package_history(store, REPO, "Left_Pad").entries] == [NPM_DEPENDENCY]
