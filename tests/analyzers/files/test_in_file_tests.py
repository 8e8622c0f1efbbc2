"""Rust keeps unit tests beside the code, in the source file's own ``#[cfg(test)] mod tests``:
a change there is a test change. Seen on a Rust history: "Support `deserialize_any` for
`Path`" added its test to `mod tests` and read "Watch: the missing regression test", its
one-liner naming the test (`tests::type_that_uses_deserialize_any`) first. On a real git
history, through sync and analysis."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.pipeline.report import report_for
from prdigest.render.formats import report_format
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/paths"
PATH = "src/path.rs"
TESTED, UNTESTED = 1, 2


def _source(limit: int, tests: list[str]) -> str:
    lines = ["pub fn split(path: &str) -> Vec<&str> {", f"    path.split('/').take({limit}).collect()", "}", ""]
    lines += ["pub fn join(parts: &[&str]) -> String {", '    parts.join("/")', "}", ""]
    if tests:
        lines += ["#[cfg(test)]", "mod tests {", "    use super::*;", ""]
        for name in tests:
            lines += ["    #[test]", f"    fn {name}() {{", '        assert_eq!(split("a/b").len(), 2);', "    }", ""]
        lines += ["}", ""]
    return "\n".join(lines)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("paths")
    repo = GitRepoBuilder(root / "repo")
    repo.commit({"README.md": "# paths\n", PATH: _source(8, ["splits_two"])}, "Initial")
    repo.squash_pr(TESTED, "Split deeper paths", {PATH: _source(16, ["splits_two", "splits_deep_paths"])})
    repo.squash_pr(UNTESTED, "Split even deeper paths", {PATH: _source(32, ["splits_two", "splits_deep_paths"])})
    return analyzed_history(repo, REPO, root / "paths.db")


def test_a_test_added_to_the_file_s_test_module_is_a_test_change(store: Store) -> None:
    facts = stored_facts(store, REPO, TESTED)
    assert facts.tests_ci.in_file_tests == [PATH]
    assert facts.tests_ci.tests_changed
    assert not facts.tests_ci.missing_tests
    assert facts.tests_ci.test_files == []  # no test file: the source file holds them
    core = next(r for r in facts.verdict.reasons if r.code == "core-change")
    assert core.items[0].params["lines"] == "2"  # `take(8)` -> `take(16)`; the new test is not core logic
    report = report_format("md").render(report_for(store, REPO, TESTED, CATALOG.lang("en"), "full", None))
    assert "missing regression test" not in report
    one_line = next(line for line in report.splitlines() if line.startswith("- In one line:"))
    assert "split" in one_line
    assert "tests::" not in one_line
    assert "assert_eq" not in one_line  # an assertion of the test module checks the change
    steps = report.split("# Implementation")[1].split("**Verification**")
    assert "splits_deep_paths" not in steps[0]  # the code's steps tell the code ...
    assert "splits_deep_paths" in steps[1]  # ... and the verification step the tests


def test_a_change_without_one_still_owes_a_test(store: Store) -> None:
    facts = stored_facts(store, REPO, UNTESTED)
    assert facts.tests_ci.in_file_tests == []
    assert facts.tests_ci.missing_tests


def test_assertions_of_a_test_modules_macro_are_not_the_change(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A ``macro_rules!`` of test cases inside ``mod tests`` is no definition: its assertions
    were told as the fix's own ("adds the assertion `assert_eq!(new_uri, $expected);`")."""

    def source(limit: int, checked: str) -> str:
        return "\n".join(
            [
                "pub fn split(path: &str) -> Vec<&str> {",
                f"    path.split('/').take({limit}).collect()",
                "}",
                "",
                "#[cfg(test)]",
                "mod tests {",
                "    use super::*;",
                "    macro_rules! case {",
                "        ($path:expr, $expected:expr) => {",
                f"            {checked}",
                "        };",
                "    }",
                "}",
                "",
            ]
        )

    root = tmp_path_factory.mktemp("macro")
    repo = GitRepoBuilder(root / "repo")
    repo.commit({PATH: source(8, "let _ = ($path, $expected);")}, "Initial")
    repo.squash_pr(3, "Split deeper paths", {PATH: source(16, "assert_eq!(split($path).len(), $expected);")})
    facts = stored_facts(analyzed_history(repo, REPO, root / "macro.db"), REPO, 3)
    assert not [e for e in facts.symbols.edits if e.kind == "assertion-added"]
