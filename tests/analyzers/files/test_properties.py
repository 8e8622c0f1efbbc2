"""Property tests: rule parsing, globs and the CI job reader never crash."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prdigest.analyzers.file_rules import Glob, parse_rules, rules_for
from prdigest.analyzers.tests_ci import ci_jobs, job_at
from prdigest.errors import ConfigError
from prdigest.models.pullrequest import FileChange

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
rule_tables = st.dictionaries(
    st.sampled_from(["pattern", "category", "type", "module", "language", "generated", "other"]), values, max_size=6
)


@given(
    st.dictionaries(
        st.sampled_from(["rule", "ci_paths", "languages", "module_names_zh", "x"]),
        values | st.lists(rule_tables, max_size=3),
        max_size=4,
    )
)
def test_rules_parse_or_config_error(data: dict[str, object]) -> None:
    message = ""
    try:
        parse_rules(data, "here").classify("a/b.py")
    except ConfigError as exc:
        message = str(exc)
    assert message == "" or message.startswith("here: ")


@given(st.text(max_size=30), st.text(max_size=60))
def test_glob_never_crashes(pattern: str, path: str) -> None:
    assert isinstance(Glob(pattern).matches(path), bool)


@given(st.text(max_size=200))
def test_classify_any_path(path: str) -> None:
    found = rules_for(None).classify(path)
    assert found.category in {"source", "test", "config", "infra", "docs", "other"}


@given(st.lists(st.text(max_size=40), min_size=1, max_size=12), st.data())
def test_job_reader_never_crashes(lines: list[str], data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(lines) - 1))
    job = job_at(".buildkite/a.yaml", lines, index)
    assert job is None or isinstance(job, str)
    ci_jobs(FileChange(path=".github/workflows/a.yml", patch="\n".join(lines), content_after="\n".join(lines)))


@pytest.mark.parametrize("key", ["category", "type"])
def test_an_array_as_category_or_type_is_a_config_error(key: str) -> None:
    """Hypothesis found ``TypeError: unhashable type: 'list'`` for ``category = []``."""
    with pytest.raises(ConfigError, match=rf"{key} \['source'\] is not one of"):
        parse_rules({"rule": [{"pattern": "*.py", key: ["source"]}]}, "here")
