"""go.mod, Cargo.toml and package.json bumps through the CLI, as a user runs it: ``sync git``,
``analyze``, then ``report`` in English and Chinese name the package and both versions, and
``facts`` holds the change with the ecosystem's source kind."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.e2e.driver import Cli
from tests.helpers.ecosystems_history import CARGO_CARET, GO_DIRECT, NPM_DEV, REPO, build_ecosystems_history


@pytest.fixture(scope="module")
def polyglot_db(tmp_path_factory: pytest.TempPathFactory, run_cli: Cli) -> Path:
    root = tmp_path_factory.mktemp("polyglot")
    build_ecosystems_history(root / "repo")
    db = root / "polyglot.db"
    run_cli("sync", "git", root / "repo", "--repo", REPO, "--db", db)
    run_cli("analyze", "--repo", REPO, "--db", db)
    return db


@pytest.mark.parametrize(
    ("number", "kind", "package", "before", "after", "users"),
    [
        (GO_DIRECT, "go", "github.com/example/router", "v1.4.0", "v1.5.2", True),
        (CARGO_CARET, "cargo", "serde", "1.0.100", "1.0.190", True),
        (NPM_DEV, "npm", "jest", "~29.1.0", "^29.7.0", False),  # a devDependency: no user installs it
    ],
)
def test_the_report_names_the_package_and_its_versions(
    run_cli: Cli, polyglot_db: Path, number: int, kind: str, package: str, before: str, after: str, users: bool
) -> None:
    ref = f"{REPO}#{number}"
    (change,) = run_cli.facts(ref, polyglot_db)["dependencies"]["changes"]
    assert (change["source_kind"], change["package"]) == (kind, package)
    english = run_cli.report_json(ref, polyglot_db, "--lang", "en", "--length", "brief")["summary"]["one_line"]
    assert f"the {package} constraint from `{before}` to `{after}`" in english
    chinese = run_cli.report_json(ref, polyglot_db, "--lang", "zh", "--length", "brief")["summary"]["one_line"]
    assert f"将 {package} 的约束由 `{before}` 提高为 `{after}`" in chinese
    full = run_cli("report", ref, "--lang", "zh", "--no-llm", "--db", polyglot_db).stdout
    assert "不解析这种格式" not in full  # read, not "unread"
    assert ("对用户无直接影响" not in full) == users
    assert (f"安装 `{package}` 时得到的版本随之变化" in full) == users
