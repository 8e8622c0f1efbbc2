"""A real git history whose PRs change the manifests of three other ecosystems: ``go.mod``,
``Cargo.toml`` and ``package.json`` (``example-org/polyglot``, all squash-merged):

#1 raises a direct go.mod requirement (``github.com/example/router`` v1.4.0 -> v1.5.2), go.sum too
#2 raises an ``// indirect`` one (``golang.org/x/text`` v0.14.0 -> v0.15.0)
#3 raises a Cargo caret requirement (``serde = "1.0.100"`` -> ``"1.0.190"``)
#4 raises a table-form Cargo version (``serde_json = { version = "1.0.96", ... }`` -> ``"1.0.108"``)
#5 raises a package.json range in ``dependencies`` (``left-pad`` ``^1.2.0`` -> ``^1.3.0``)
#6 widens a range in ``devDependencies`` (``jest`` ``~29.1.0`` -> ``^29.7.0``)
#7 re-formats all three manifests without changing what they require
#8 breaks Cargo.toml (an unclosed table header); #9 breaks package.json (a trailing comma)
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from tests.helpers.gitrepo import GitRepoBuilder

REPO = "example-org/polyglot"
GO_DIRECT, GO_INDIRECT, CARGO_CARET, CARGO_TABLE, NPM_DEPENDENCY, NPM_DEV, REFORMAT, BAD_CARGO, BAD_NPM = range(1, 10)
CARGO_PATH = "crates/core/Cargo.toml"
NPM_PATH = "web/package.json"

GO_MOD = """module example.org/polyglot

go 1.22

require (
\tgithub.com/example/router {router}
\tgithub.com/example/log v0.3.1
)

require (
\tgithub.com/example/bytes v1.0.0 // indirect
\tgolang.org/x/text {text} // indirect
)
"""
GO_MOD_REFORMATTED = """module example.org/polyglot

go 1.22

require github.com/example/router v1.5.2
require github.com/example/log v0.3.1 // the logger

require (
\tgolang.org/x/text v0.15.0 // indirect
\tgithub.com/example/bytes v1.0.0 // indirect
)
"""
GO_SUM = "github.com/example/router {router} h1:abc=\ngithub.com/example/router {router}/go.mod h1:def=\n"
CARGO = """[package]
name = "polyglot-core"
version = "0.1.0"
edition = "2021"

[dependencies]
serde = "{serde}"
serde_json = {{ version = "{json}", features = ["raw_value"] }}

[dev-dependencies]
criterion = "0.5"
"""
CARGO_REFORMATTED = """[package]
name = "polyglot-core"
version = "0.1.0"
edition = "2021"

[dev-dependencies]
criterion = "0.5"

[dependencies]
# the serializer
serde = "1.0.190"

[dependencies.serde_json]
version = "1.0.108"
features = ["raw_value"]
"""


def package_json(left_pad: str, jest: str, indent: int = 2) -> str:
    data = {
        "name": "polyglot-web",
        "version": "1.0.0",
        "dependencies": {"left-pad": left_pad, "react": "^18.2.0"},
        "devDependencies": {"jest": jest},
    }
    return json.dumps(data, indent=indent) + "\n"


def _day(day: int) -> datetime:
    return datetime(2024, 3, day, 12, 0, tzinfo=UTC)


def build_ecosystems_history(root: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(root)
    repo.commit(
        {
            "README.md": "# polyglot\n",
            "go.mod": GO_MOD.format(router="v1.4.0", text="v0.14.0"),
            "go.sum": GO_SUM.format(router="v1.4.0"),
            CARGO_PATH: CARGO.format(serde="1.0.100", json="1.0.96"),
            NPM_PATH: package_json("^1.2.0", "~29.1.0"),
        },
        "Initial commit",
        date=_day(1),
    )
    repo.squash_pr(
        GO_DIRECT,
        "chore(deps): bump github.com/example/router",
        {"go.mod": GO_MOD.format(router="v1.5.2", text="v0.14.0"), "go.sum": GO_SUM.format(router="v1.5.2")},
        date=_day(2),
    )
    repo.squash_pr(
        GO_INDIRECT,
        "chore(deps): bump the text module",
        {"go.mod": GO_MOD.format(router="v1.5.2", text="v0.15.0")},
        date=_day(3),
    )
    caret = CARGO.format(serde="1.0.190", json="1.0.96")
    repo.squash_pr(CARGO_CARET, "Update serde", {CARGO_PATH: caret}, date=_day(4))
    table = CARGO.format(serde="1.0.190", json="1.0.108")
    repo.squash_pr(CARGO_TABLE, "Update serde_json", {CARGO_PATH: table}, date=_day(5))
    repo.squash_pr(NPM_DEPENDENCY, "Update left-pad", {NPM_PATH: package_json("^1.3.0", "~29.1.0")}, date=_day(6))
    repo.squash_pr(NPM_DEV, "Update jest", {NPM_PATH: package_json("^1.3.0", "^29.7.0")}, date=_day(7))
    repo.squash_pr(
        REFORMAT,
        "Tidy the manifests",
        {"go.mod": GO_MOD_REFORMATTED, CARGO_PATH: CARGO_REFORMATTED, NPM_PATH: package_json("^1.3.0", "^29.7.0", 4)},
        date=_day(8),
    )
    repo.squash_pr(
        BAD_CARGO, "Add a dependency", {CARGO_PATH: CARGO_REFORMATTED + "\n[dependencies\nrand = 0.8\n"}, date=_day(9)
    )
    broken = package_json("^1.3.0", "^29.7.0", 4).replace('"^29.7.0"', '"^29.7.0",')
    repo.squash_pr(BAD_NPM, "Add a script", {NPM_PATH: broken}, date=_day(10))
    repo.set_origin(f"https://github.com/{REPO}.git")
    return repo
