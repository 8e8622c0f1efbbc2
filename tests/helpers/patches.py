"""Hand-written PR records with real unified diffs, for tests that run the analyzers on them."""

from __future__ import annotations

import difflib
import subprocess
from pathlib import Path

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.defaults import default_registry
from prdigest.analyzers.registry import run_all
from prdigest.models.facts import Facts
from prdigest.models.pullrequest import FileChange, FileStatus, PullRequest


def unified_patch(before: str, after: str, context: int = 3) -> str:
    """A GitHub-style patch (hunks only, no file headers) from two texts ending in newlines."""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), "a/f", "b/f", n=context
    )
    return "".join(list(lines)[2:])


def git_patch(tmp_path: Path, before: str, after: str, suffix: str) -> str:
    """The hunks of ``git diff --no-index`` (with git's function-context hunk headers)."""
    old, new = tmp_path / f"old{suffix}", tmp_path / f"new{suffix}"
    old.write_text(before, encoding="utf-8")
    new.write_text(after, encoding="utf-8")
    completed = subprocess.run(
        ["git", "diff", "--no-index", "--no-color", "--no-ext-diff", str(old), str(new)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 1, completed.stderr  # 1: the files differ
    text = completed.stdout
    return text[text.index("@@") :]


def file_change(
    path: str,
    before: str | None,
    after: str | None,
    *,
    with_contents: bool = True,
    patch: str | None = None,
) -> FileChange:
    if before is None:
        status = FileStatus.ADDED
    elif after is None:
        status = FileStatus.REMOVED
    else:
        status = FileStatus.MODIFIED
    text = patch if patch is not None else unified_patch(before or "", after or "")
    added = sum(1 for line in text.splitlines() if line.startswith("+"))
    removed = sum(1 for line in text.splitlines() if line.startswith("-"))
    return FileChange(
        path=path,
        status=status,
        additions=added,
        deletions=removed,
        patch=text,
        content_before=before if with_contents else None,
        content_after=after if with_contents else None,
    )


def pull_request(*files: FileChange) -> PullRequest:
    return PullRequest(repository="octo/demo", number=7, title="demo", files=list(files))


def analyzed(pr: PullRequest) -> Facts:
    """The facts the default registry makes of `pr`, as `prdigest analyze` does."""
    return run_all(pr, default_registry(), AnalysisContext())
