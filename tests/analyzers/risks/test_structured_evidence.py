"""Risk tags carry language-neutral evidence; new rules: duplicated literals, unresolved concerns."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from prdigest.analyzers.risks import derive_risk_tags, duplicated_literals, version_part
from prdigest.models.facts import (
    DependenciesFacts,
    DependencyChange,
    DiscussionFacts,
    DiscussionThread,
    FileFact,
    FilesFacts,
    ReferencesFacts,
    RiskTag,
    SymbolsFacts,
)
from prdigest.models.facts import (
    TestsCIFacts as CIFacts,
)
from prdigest.models.pullrequest import FileChange, PullRequest


def _pr(*files: FileChange) -> PullRequest:
    return PullRequest(repository="o/r", number=1, title="Change", files=list(files))


def _files(pr: PullRequest, categories: dict[str, str]) -> FilesFacts:
    return FilesFacts(
        files=[FileFact(path=f.path, category=categories.get(f.path, "source")) for f in pr.files],  # type: ignore[arg-type]
        total_files=len(pr.files),
    )


def _tags(pr: PullRequest, **facts: object) -> dict[str, RiskTag]:
    files = facts.get("files") or _files(pr, {})
    risks = derive_risk_tags(
        pr,
        files,  # type: ignore[arg-type]
        facts.get("tests") or CIFacts(),  # type: ignore[arg-type]
        facts.get("deps") or DependenciesFacts(),  # type: ignore[arg-type]
        SymbolsFacts(),
        ReferencesFacts(),
        facts.get("discussion") or DiscussionFacts(),  # type: ignore[arg-type]
    )
    return {t.tag: t for t in risks.tags}


def test_dependency_evidence_names_the_package_once_with_version_parts() -> None:
    pr = _pr(FileChange(path="requirements/cuda.txt", additions=1, deletions=1))
    change = DependencyChange(
        path="requirements/cuda.txt",
        package="cupy-cuda13x",
        before="cupy-cuda13x<14.1.0",
        after="cupy-cuda13x!=14.1.0  # 14.1.0 is broken",
        kinds=["cap-to-exclusion"],
        newly_admitted=["14.1.1"],
    )
    tags = _tags(pr, deps=DependenciesFacts(changes=[change]))
    assert "dependency-constraint-change" not in tags  # one fact, one tag
    assert "missing-regression-test" not in tags
    future = tags["future-version-regression-risk"]
    assert (
        future.evidence
        == "requirements/cuda.txt: cupy-cuda13x <14.1.0 → !=14.1.0 (admits 14.1.1 and every later release)"
    )
    assert future.items[0].template == "future-version-regression-risk.admits"
    assert future.items[0].params == {
        "path": "requirements/cuda.txt",
        "package": "cupy-cuda13x",
        "before": "<14.1.0",
        "after": "!=14.1.0",
        "versions": ["14.1.1"],
    }


def test_a_floor_raised_is_one_upgrade_tag_not_a_constraint_change_too() -> None:
    pr = _pr(FileChange(path="requirements/common.txt", additions=1, deletions=1))
    change = DependencyChange(
        path="requirements/common.txt",
        package="numpy",
        before="numpy>=1.24",
        after="numpy>=2.0",
        kinds=["floor-raised"],
    )
    tags = _tags(pr, deps=DependenciesFacts(changes=[change]))
    # one tag for the one change; no image-impact claim without a container build that installs the file
    assert set(tags) == {"dependency-upgrade"}


def test_version_part_keeps_extras_and_markers() -> None:
    assert version_part("humming-kernels[cu13]==0.1.2") == "[cu13]==0.1.2"
    assert version_part('numpy>=2; python_version >= "3.11"') == '>=2; python_version >= "3.11"'
    assert version_part("numpy") == ""
    assert version_part(None) == ""
    assert version_part("not a requirement !!") == "not a requirement !!"


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=80))
def test_version_part_never_crashes(text: str) -> None:
    assert isinstance(version_part(text), str)


def test_the_same_value_added_to_two_files_is_duplicated_logic() -> None:
    arch = "7.0 7.5 8.0 8.6 8.9 9.0"
    pr = _pr(
        FileChange(path="Dockerfile", additions=1, patch=f'@@ -1 +1,2 @@\n RUN x\n+ENV ARCH="{arch}"'),
        FileChange(path="setup.py", additions=1, patch=f'@@ -1 +1,2 @@\n x = 1\n+os.environ["ARCH"] = "{arch}"'),
        FileChange(path="tests/test_setup.py", additions=1, patch=f'@@ -1 +1,2 @@\n x = 1\n+assert a == "{arch}"'),
    )
    files = _files(pr, {"Dockerfile": "infra", "tests/test_setup.py": "test"})
    assert duplicated_literals(pr, files) == [(arch, ["Dockerfile", "setup.py"])]
    tag = _tags(pr, files=files)["duplicated-logic-across-files"]
    assert tag.items[0].template == "duplicated-logic-across-files.literal"
    assert arch in tag.evidence


def test_moved_values_and_short_values_are_not_duplication() -> None:
    moved = "a long moved message text"
    pr = _pr(
        FileChange(path="a.py", additions=1, deletions=1, patch=f'@@ -1 +1 @@\n-x = "{moved}"\n+x = "utf-8"'),
        FileChange(path="b.py", additions=1, patch=f'@@ -1 +1,2 @@\n y\n+x = "{moved}"'),
        FileChange(path="c.py", additions=1, patch='@@ -1 +1,2 @@\n y\n+x = "utf-8"'),
    )
    assert duplicated_literals(pr, _files(pr, {})) == []


def test_an_unanswered_correctness_thread_is_a_risk_and_answered_ones_are_not() -> None:
    pr = _pr(FileChange(path="pkg/a.py", additions=1))
    open_point = DiscussionThread(
        topic="Users now get a NameError", kind="correctness", outcome="no-reply", participants=["bot[bot]"]
    )
    answered = open_point.model_copy(update={"outcome": "answered", "topic": "Why not X?"})
    design = open_point.model_copy(update={"kind": "design", "topic": "Style of Y"})
    tags = _tags(pr, discussion=DiscussionFacts(threads=[open_point, answered, design]))
    concern = tags["unresolved-review-concern"]
    assert [i.params["topic"] for i in concern.items] == ["Users now get a NameError"]
    assert concern.items[0].params["who"] == ["bot[bot]"]
    assert concern.label_zh == "评审疑点未解决"
    assert "unresolved-review-concern" not in _tags(pr, discussion=DiscussionFacts(threads=[answered]))


def test_many_triggers_keep_three_items_and_count_the_rest() -> None:
    pr = _pr(*(FileChange(path=f"docker/{n}/Dockerfile", additions=1) for n in range(5)))
    tag = _tags(pr)["runtime-image-impact"]
    assert len(tag.items) == 3
    assert tag.more == 2
    assert tag.evidence.endswith("(+2 more)")
