"""Who wrote the lines a commit removes or changes: ``git blame`` of its first parent.

For a fix, the commit that last wrote the lines it changes is where a reader looks for the
bug's origin. Only the old side of each hunk is blamed (``git diff -U0`` names the ranges),
with ``-w -M -C`` so that whitespace, moved and copied lines are followed to their author.
Bounded: at most ``max_files`` files and ``max_lines`` lines a commit. Lines git marks as a
boundary (the root commit, a shallow clone's edge) are counted as written by nobody known.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from unidiff.errors import UnidiffParseError
from unidiff.patch import PatchSet

from prdigest.sources.git.runner import try_git_bytes

_HEADER = re.compile(rb"^([0-9a-f]{40}) \d+ \d+(?: \d+)?$")
_BOUNDARY = "boundary"


@dataclass
class BlamedLines:
    """Changed lines of one commit, counted by the commit that wrote each (in the parent)."""

    commit: str
    lines: int = 0
    by_path: Counter[str] = field(default_factory=Counter)
    by_commit: Counter[tuple[str, str]] = field(default_factory=Counter)  # (commit, path)
    boundary: int = 0  # lines of the root commit or beyond a shallow edge
    limited: bool = False


def blame_changed_lines(
    repo: Path, commit: str, paths: Sequence[str], *, max_files: int = 12, max_lines: int = 600
) -> BlamedLines | None:
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
    result = BlamedLines(commit=commit, limited=len(paths) > max_files)
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
            _blame_file(repo, parent, old_path, kept, result)
    return result


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


def _blame_file(repo: Path, parent: str, path: str, ranges: list[tuple[int, int]], into: BlamedLines) -> None:
    args = ["blame", "-w", "-M", "-C", "--porcelain"]
    for start, length in ranges:
        args += ["-L", f"{start},+{length}"]
    output = try_git_bytes(repo, [*args, parent, "--", path])
    if output is None:
        return  # a path git cannot blame in the parent (it says nothing of the others)
    current: str | None = None
    boundaries: set[str] = set()
    for line in output.split(b"\n"):
        if line.startswith(b"\t"):
            if current is None:
                continue
            into.lines += 1
            into.by_path[path] += 1
            if current in boundaries:
                into.boundary += 1
            else:
                into.by_commit[current, path] += 1
            continue
        header = _HEADER.match(line)
        if header is not None:
            current = header.group(1).decode()
        elif line.strip() == _BOUNDARY.encode() and current is not None:
            boundaries.add(current)
