"""Property tests: requirement parsing, sources and admission never crash on any input."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.dependencies import analyze_dependencies
from prdigest.analyzers.dependencies.admission import admission_delta, versions_considered
from prdigest.analyzers.dependencies.change_kinds import change_kinds
from prdigest.analyzers.dependencies.requirement_lines import (
    ParsedRequirement,
    Reference,
    Unparsable,
    parse_requirements_line,
)
from prdigest.models.pullrequest import FileChange, PullRequest

names = st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,6}(-cu1[23]|-cuda1[23]x)?", fullmatch=True)
versions = st.lists(st.integers(0, 20), min_size=1, max_size=3).map(lambda parts: ".".join(map(str, parts)))
operators = st.sampled_from(["<", "<=", ">", ">=", "==", "!=", "~="])
specifiers = st.lists(st.tuples(operators, versions), max_size=3).map(
    lambda items: ",".join(op + (v if op != "~=" or "." in v else v + ".0") for op, v in items)
)
requirement_lines = st.tuples(names, specifiers).map(lambda t: t[0] + t[1])


@given(st.text(max_size=200))
def test_any_line_parses_or_is_reported(line: str) -> None:
    result = parse_requirements_line(line)
    assert result is None or isinstance(result, ParsedRequirement | Reference | Unparsable)
    if isinstance(result, Unparsable):
        assert result.reason


@given(requirement_lines)
def test_well_formed_lines_parse_like_packaging(line: str) -> None:
    result = parse_requirements_line(line)
    try:
        expected = Requirement(line)
    except InvalidRequirement:
        assert isinstance(result, Unparsable)
        return
    assert isinstance(result, ParsedRequirement)
    assert result.normalized == str(expected)


@given(requirement_lines, requirement_lines)
def test_change_kinds_never_crash(old: str, new: str) -> None:
    try:
        before, after = Requirement(old), Requirement(new)
    except InvalidRequirement:
        return
    kinds = change_kinds(before, after)
    if str(before) == str(after):
        assert kinds == []


@given(specifiers, specifiers, st.lists(versions, max_size=6))
def test_admission_is_consistent_with_packaging(old: str, new: str, listed: list[str]) -> None:
    old_set, new_set = SpecifierSet(old), SpecifierSet(new)
    considered = [Version(v) for v in listed]
    admitted, excluded = admission_delta(old_set, new_set, considered)
    for text in admitted:
        assert new_set.contains(text, prereleases=True)
        assert not old_set.contains(text, prereleases=True)
    for text in excluded:
        assert old_set.contains(text, prereleases=True)
        assert not new_set.contains(text, prereleases=True)
    assert not set(admitted) & set(excluded)


@given(st.lists(st.text(max_size=80), max_size=4), specifiers)
def test_versions_considered_never_crash(texts: list[str], spec: str) -> None:
    found = versions_considered(texts, ["cupy", "", "-"], [SpecifierSet(spec)])
    assert found == sorted(found)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["requirements/x.txt", "pyproject.toml", "setup.py", "setup.cfg", "Dockerfile", "a.sh"]),
    st.text(max_size=300),
    st.one_of(st.none(), st.text(max_size=200)),
    st.one_of(st.none(), st.text(max_size=200)),
)
def test_whole_analyzer_never_crashes(path: str, patch: str, before: str | None, after: str | None) -> None:
    pr = PullRequest(
        repository="o/r",
        number=1,
        title="t",
        files=[FileChange(path=path, patch="@@ -1,1 +1,1 @@\n" + patch, content_before=before, content_after=after)],
    )
    facts = analyze_dependencies(pr, AnalysisContext())
    for finding in facts.findings:
        assert finding.detail


def test_change_kinds_do_not_depend_on_specifier_order() -> None:
    # SpecifierSet iterates in hash order; the same set written two ways is no change.
    before = Requirement("pkg<=1.0,==0.0,==0.1")
    after = Requirement("pkg<=1.0,==0.1,==0.0")
    assert change_kinds(before, after) == []
    assert change_kinds(Requirement("pkg==1.0"), Requirement("pkg==1.1")) == ["pin-changed"]
