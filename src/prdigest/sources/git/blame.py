"""Who wrote the lines a commit removes or changes: ``git blame`` of its first parent.

For a fix, the commit that last wrote the lines it changes is where a reader looks for the
bug's origin. Only the old side of each hunk is blamed (``git diff -U0`` names the ranges),
with ``-w -M -C`` so that whitespace, moved and copied lines are followed to their author.
Bounded: at most ``max_files`` files and ``max_lines`` lines a commit. Lines git marks as a
boundary (the root commit, a shallow clone's edge) are written by nobody known
(``commit`` None). Each line keeps where it is in the commit blamed for it, so a caller can
look further back when that commit only moved it (`sources/git/moves.py`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from unidiff.errors import UnidiffParseError
from unidiff.patch import PatchSet

from prdigest.sources.git.runner import try_git_bytes

_HEADER = re.compile(rb"^([0-9a-f]{40}) (\d+) (\d+)(?: \d+)?$")
_BOUNDARY = b"boundary"
_FILENAME = b"filename "


@dataclass(frozen=True)
class BlamedLine:
    """One line as ``git blame`` tells it: the commit that wrote it (None beyond the known
    history), its path and line number in that commit, and its line number where blamed."""

    commit: str | None
    path: str
    line: int
    final: int
    text: str


@dataclass
class ChangedLines:
    """The old side of one commit's changes, line by line (path in the parent, blame)."""

    commit: str
    lines: list[tuple[str, BlamedLine]] = field(default_factory=list)
    limited: bool = False


def blame_changed_lines(
    repo: Path, commit: str, paths: Sequence[str], *, max_files: int = 12, max_lines: int = 600
) -> ChangedLines | None:
    """Blame the old side of ``commit``'s changes to ``paths`` in its first parent.

    None when git cannot say: the commit or its parent is not in the clone."""
    if not paths:
        return None
    parent = f"{commit}^1"
    diff = try_git_bytes(
        repo, ["diff", "-U0", "--no-color", "--no-ext-diff", "-M", parent, commit, "--", *paths[:max_files]]
    )
    if diff is None:
        return None
    result = ChangedLines(commit=commit, limited=len(paths) > max_files)
    budget = max_lines
    for old_path, ranges in _old_ranges(diff):
        if budget <= 0:
            result.limited = True
            break
        kept: list[tuple[int, int]] = []
        for start, length in ranges:
            take = min(length, budget)
            if take <= 0:
                result.limited = True
                break
            kept.append((start, take))
            budget -= take
            if take < length:
                result.limited = True
        if kept:
            result.lines.extend((old_path, line) for line in blame_ranges(repo, parent, old_path, kept))
    return result


def blame_ranges(repo: Path, rev: str, path: str, ranges: Sequence[tuple[int, int]]) -> list[BlamedLine]:
    """``git blame -w -M -C`` of ``(first line, count)`` ranges of ``path`` at ``rev``;
    empty when git cannot blame that path there."""
    args = ["blame", "-w", "-M", "-C", "--porcelain"]
    for start, length in ranges:
        args += ["-L", f"{start},+{length}"]
    output = try_git_bytes(repo, [*args, rev, "--", path])
    if output is None:
        return []
    return _parse_porcelain(output, path)


def _parse_porcelain(output: bytes, path: str) -> list[BlamedLine]:
    found: list[BlamedLine] = []
    current: tuple[str, int, int] | None = None
    boundaries: set[str] = set()
    # The porcelain format names a commit's file only at its first group (again only when
    # the commit has several paths), so the last name seen for each commit holds.
    filenames: dict[str, str] = {}
    for line in output.split(b"\n"):
        if line.startswith(b"\t"):
            if current is None:
                continue
            sha, orig, final = current
            text = line[1:].decode("utf-8", errors="replace")
            known = None if sha in boundaries else sha
            found.append(BlamedLine(known, filenames.get(sha, path), orig, final, text))
            current = (sha, orig + 1, final + 1)  # lines of a group without their own header
            continue
        header = _HEADER.match(line)
        if header is not None:
            current = (header.group(1).decode(), int(header.group(2)), int(header.group(3)))
        elif current is not None and line.strip() == _BOUNDARY:
            boundaries.add(current[0])
        elif current is not None and line.startswith(_FILENAME):
            filenames[current[0]] = line[len(_FILENAME) :].decode("utf-8", errors="replace")
    return found


def _old_ranges(diff: bytes) -> list[tuple[str, list[tuple[int, int]]]]:
    """(path in the parent, [(first line, count)]) of every file whose old side changed."""
    try:
        patches = PatchSet(diff.decode("utf-8", errors="replace"))
    except UnidiffParseError:
        return []
    found: list[tuple[str, list[tuple[int, int]]]] = []
    for patch in patches:
        if patch.is_added_file or patch.is_binary_file:
            continue
        source = patch.source_file
        path = source[2:] if source.startswith("a/") else source
        ranges = [(hunk.source_start, hunk.source_length) for hunk in patch if hunk.source_length > 0]
        if ranges:
            found.append((path, ranges))
    return found
