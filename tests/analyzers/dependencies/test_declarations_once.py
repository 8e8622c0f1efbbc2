"""A changed dependency file's declarations are read once per file, whoever asks."""

from __future__ import annotations

from prdigest.analyzers.dependencies.sources import declarations
from prdigest.models.pullrequest import FileChange, FileStatus


def _requirements(before: str, after: str, path: str = "requirements.txt") -> FileChange:
    patch = f"@@ -1,1 +1,1 @@\n-{before}\n+{after}\n"
    return FileChange(
        path=path,
        status=FileStatus.MODIFIED,
        additions=1,
        deletions=1,
        patch=patch,
        content_before=before + "\n",
        content_after=after + "\n",
    )


def test_one_file_is_read_once_and_an_equal_file_apart() -> None:
    change = _requirements("httpx>=0.20", "httpx>=0.23,<1")
    first = declarations(change)
    assert first is not None
    assert declarations(change) is first
    twin = change.model_copy()
    again = declarations(twin)
    assert again is not first
    assert again == first
    assert [e.requirement.text for e in first.after.entries] == ["httpx>=0.23,<1"]


def test_a_file_read_long_ago_is_read_again_the_same() -> None:
    change = _requirements("rich==13.0", "rich==13.1")
    first = declarations(change)
    for number in range(40):  # more files than are remembered
        declarations(_requirements(f"pkg{number}==1", f"pkg{number}==2"))
    assert declarations(change) == first


def test_no_dependency_source_has_no_declarations() -> None:
    assert declarations(_requirements("a = 1", "a = 2", path="pkg/module.py")) is None


def test_a_file_text_seen_in_an_earlier_pr_is_not_read_again() -> None:
    earlier = _requirements("numpy>=1.20", "numpy>=1.22")
    later = _requirements("numpy>=1.22", "numpy>=1.24")  # its old side is the earlier new side
    first, second = declarations(earlier), declarations(later)
    assert first is not None
    assert second is not None
    assert second.before is first.after
    assert [e.requirement.text for e in second.before.entries] == ["numpy>=1.22"]
    other_path = _requirements("numpy>=1.22", "numpy>=1.26", path="requirements-dev.txt")
    third = declarations(other_path)
    assert third is not None
    assert third.before is not first.after  # another file: read on its own
    assert third.before == first.after


def test_a_patch_side_is_read_each_time() -> None:
    change = _requirements("click>=7", "click>=8").model_copy(update={"content_before": None})
    again = change.model_copy()
    first, second = declarations(change), declarations(again)
    assert first is not None
    assert second is not None
    assert first.after == second.after
    assert first.after is not second.after
