"""A change that only edits literal data (table entries: names, patterns, extensions) has no
line of logic: the verdict says so and skips it; one line of logic among the entries, and the
change is core logic again."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.data_lines import is_data_line
from prdigest.analyzers.defaults import default_registry
from prdigest.analyzers.registry import run_all
from prdigest.analyzers.verdict import VerdictModel, judge
from prdigest.analyzers.verdict.model import parse_model
from prdigest.errors import ConfigError
from prdigest.models.facts import Facts, VerdictLevel
from prdigest.models.pullrequest import FileChange, PullRequest

_TABLE_BEFORE = '    ("c", &["*.c", "*.h"]),'


def _facts(path: str, removed: list[str], added: list[str]) -> tuple[PullRequest, Facts]:
    body = [f"-{line}" for line in removed] + [f"+{line}" for line in added]
    header = f"@@ -1,{2 + len(removed)} +1,{2 + len(added)} @@\n"
    patch = header + " const TYPES: &[(&str, &[&str])] = &[\n" + "\n".join(body) + "\n ];\n"
    change = FileChange(path=path, additions=len(added), deletions=len(removed), patch=patch)
    pr = PullRequest(repository="acme/grep", number=5, title="Add file types", author="dev", files=[change])
    return pr, run_all(pr, default_registry(), AnalysisContext())


@pytest.mark.parametrize(
    "line",
    [
        '    ("tcl", &["*.tcl"]),',
        "    'data',",
        '    "x86_64": 64, "arm": 32,',
        '{"*.md", "*.markdown"},',
    ],
)
def test_quoted_values_and_punctuation_are_data(line: str) -> None:
    assert is_data_line(line)


@pytest.mark.parametrize(
    "line",
    [
        "    protocols: ['http', 'https', 'data'],",  # a key named in code
        '    ("tcl", &TCL_GLOBS),',  # a name
        '    return "tcl";',
        "    `${prefix}/bin`,",  # a template that computes
        "    1, 2, 3,",  # no quoted value
        "    }",
    ],
)
def test_names_calls_and_bare_punctuation_are_not(line: str) -> None:
    assert not is_data_line(line)


def test_a_change_of_table_entries_only_is_skipped_as_data() -> None:
    _, facts = _facts(
        "src/types.rs",
        [_TABLE_BEFORE],
        ['    ("c", &["*.c", "*.h", "*.cats"]),', '    ("dhall", &["*.dhall"]),', '    ("tcl", &["*.tcl"]),'],
    )
    codes = {r.code for r in facts.verdict.reasons}
    assert "core-change" not in codes
    assert codes == {"data-only"}
    data = next(r for r in facts.verdict.reasons if r.code == "data-only")
    assert data.items[0].params["lines"] == "4"
    assert facts.verdict.level is VerdictLevel.SKIP


def test_one_line_of_logic_among_the_entries_is_core_logic() -> None:
    _, facts = _facts(
        "src/types.rs",
        [_TABLE_BEFORE],
        ['    ("c", &["*.c", "*.h", "*.cats"]),', "    (name, &globs_of(name)),"],
    )
    core = next(r for r in facts.verdict.reasons if r.code == "core-change")
    assert core.items[0].params["lines"] == "3"
    assert "data-only" not in {r.code for r in facts.verdict.reasons}


def _level(pr: PullRequest, facts: Facts, steps: tuple[tuple[int, float], ...]) -> tuple[VerdictLevel, float]:
    model = VerdictModel(3.5, 1.0, MappingProxyType({}), steps)
    verdict = judge(
        pr, facts.files, facts.tests_ci, facts.dependencies, facts.symbols, facts.references,
        facts.discussion, facts.risks, model,
    )  # fmt: skip
    return verdict.level, {r.code: r.weight for r in verdict.reasons}["core-change"]


def test_the_size_steps_are_the_models() -> None:
    pr, facts = _facts("src/types.rs", [_TABLE_BEFORE], ["    (name, &globs_of(name)),"])
    assert _level(pr, facts, ((5, 1.5), (1, 0.5))) == (VerdictLevel.SKIP, 0.5)
    assert _level(pr, facts, ((5, 1.5), (3, 1.0), (1, 1.25))) == (VerdictLevel.QUICK_READ, 1.25)


def test_the_model_file_holds_the_size_steps() -> None:
    model = parse_model({"read_in_depth": 3.5, "quick_read": 1.0, "core_lines": {"1": 1.0, "5": 1.5}}, "m.toml")
    assert (model.core_weight(0), model.core_weight(3), model.core_weight(500)) == (0.0, 1.0, 1.5)
    with pytest.raises(ConfigError, match="1 line or more"):
        parse_model({"read_in_depth": 3.5, "quick_read": 1.0, "core_lines": {"0": 1.0}}, "m.toml")


def test_new_table_entries_owe_no_regression_test() -> None:
    """Entries only added leave every answer the table gave as it was: no test is owed, and
    no risk line says one is missing."""
    _, facts = _facts("src/types.rs", [], ['    ("dhall", &["*.dhall"]),', '    ("tcl", &["*.tcl"]),'])
    assert not facts.tests_ci.missing_tests
    assert "missing-regression-test" not in {t.tag for t in facts.risks.tags}


def test_a_changed_table_entry_owes_a_test() -> None:
    """An entry changed in place changes what an existing lookup answers."""
    _, facts = _facts("src/types.rs", [_TABLE_BEFORE], ['    ("c", &["*.c", "*.h", "*.cats"]),'])
    assert facts.tests_ci.missing_tests


def test_one_line_of_logic_among_the_entries_owes_a_test() -> None:
    _, facts = _facts("src/types.rs", [_TABLE_BEFORE], ["    (name, &globs_of(name)),"])
    assert facts.tests_ci.missing_tests
    assert "missing-regression-test" in {t.tag for t in facts.risks.tags}
