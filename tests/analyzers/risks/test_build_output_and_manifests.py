"""A value written in two places is a design trap only when both are settings someone edits:
not the bundles a build wrote into dist/ (every copy carries every string), and not a
package's name, which a package.json declares as a key and the build config imports. Seen on
a JavaScript history: 7 of 813 PRs flagged such "design traps", each one of these."""

from __future__ import annotations

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.defaults import default_registry
from prdigest.analyzers.registry import run_all
from prdigest.models.facts import Facts
from prdigest.models.pullrequest import FileChange, PullRequest


def _added(path: str, lines: list[str]) -> FileChange:
    patch = f"@@ -0,0 +1,{len(lines)} @@\n" + "\n".join(f"+{line}" for line in lines) + "\n"
    return FileChange(path=path, additions=len(lines), patch=patch)


def _tags(files: list[FileChange]) -> set[str]:
    pr = PullRequest(repository="acme/fetcher", number=5, title="Build with rollup", files=files)
    facts: Facts = run_all(pr, default_registry(), AnalysisContext())
    return {tag.tag for tag in facts.risks.tags}


MESSAGE = "'the adapter is not available in the build'"


def test_copies_in_build_output_are_no_design_trap() -> None:
    bundles = [_added(p, [f"  throw new Error({MESSAGE});"]) for p in ("dist/fetcher.js", "dist/node/fetcher.cjs")]
    assert "duplicated-logic-across-files" not in _tags(bundles)
    # the same value written by hand in a source file and a settings file still is one
    edited = [
        _added("lib/adapters.js", [f"  throw new Error({MESSAGE});"]),
        _added("config/messages.yml", [f"adapter: {MESSAGE}"]),
    ]
    assert "duplicated-logic-across-files" in _tags(edited)


def test_a_package_name_declared_and_imported_is_no_design_trap() -> None:
    manifest = _added("package.json", ['  "devDependencies": {', '    "@rollup/plugin-commonjs": "^21.0.1"', "  }"])
    config = _added("rollup.config.js", ["import commonjs from '@rollup/plugin-commonjs';"])
    assert "duplicated-logic-across-files" not in _tags([manifest, config])


def test_code_rules_do_not_read_build_output() -> None:
    # A bundle carries every line of the library, and a source map every file's text: axios
    # reported "security-sensitive" for `dist/axios.js.map:1` in 42 of 813 PRs.
    line = "  const auth = config.password ? btoa(config.password) : '';"
    assert "security-sensitive" not in _tags([_added("dist/fetcher.js", [line]), _added("dist/fetcher.js.map", [line])])
    assert "security-sensitive" in _tags([_added("lib/adapters/xhr.js", [line])])
