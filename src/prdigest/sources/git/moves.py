"""Lines a commit only moved or re-wrapped: where each of them was in the commit's parent.

``git blame -M -C`` follows moved lines only in blocks of at least 20 (40 across files)
alphanumeric characters *of the lines being blamed*, so one changed line inside a function
that an earlier commit moved to another file, or re-wrapped, is blamed on that commit. Its
own diff proves the move: the line is removed from another file in the same commit with
the same text but for whitespace, among the same neighbours (a block of at least
``MIN_MOVED`` alphanumeric characters, git's own bar), or its hunk only re-wraps (the
removed and the added text are equal but for whitespace). Lines moved within one file are
not followed here: putting statements in another order can be the very change (a fix that
moves a cast before a call), and git's own -M follows the whole blocks. A merge or a root
commit, or a diff larger than ``max_lines``, proves nothing here.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from unidiff.errors import UnidiffParseError
from unidiff.patch import PatchSet

from prdigest.errors import SourceError
from prdigest.sources.git.runner import run_git

MIN_MOVED = 20  # alphanumeric characters of a moved block (git blame's -M default)
_NEIGHBOURS = 3  # lines each side compared to tell identical lines apart
_SPACE = re.compile(r"\s+")
_COMMIT_LINE = re.compile(r"^(?=[0-9a-f]{40}\n)", re.MULTILINE)


def _key(text: str) -> str:
    return _SPACE.sub("", text)


def _weight(key: str) -> int:
    return sum(c.isalnum() for c in key)


@dataclass
class _Hunk:
    source_path: str
    removed: list[tuple[int, str]] = field(default_factory=list)  # (line in the parent, key)
    added: list[tuple[int, str]] = field(default_factory=list)  # (line in the commit, key)

    def rewraps(self) -> bool:
        removed = "".join(key for _, key in self.removed)
        return bool(removed) and removed == "".join(key for _, key in self.added)


@dataclass
class CommitMoves:
    """One commit's diff, indexed to say where an added line came from if it only moved."""

    commit: str
    hunks: list[_Hunk] = field(default_factory=list)
    added_at: dict[tuple[str, int], tuple[int, int]] = field(default_factory=dict)  # -> (hunk, index)
    removed_by_key: dict[str, list[tuple[int, int]]] = field(default_factory=lambda: defaultdict(list))

    def source_of(self, path: str, line: int) -> tuple[str, int] | None:
        """(path, line) in the commit's parent of ``path``:``line`` of the commit, when the
        commit only moved or re-wrapped it; None when it wrote it (or git cannot tell)."""
        at = self.added_at.get((path, line))
        if at is None:
            return None
        hunk = self.hunks[at[0]]
        if hunk.rewraps():
            return _rewrapped(hunk, at[1])
        return self._moved(hunk, at[1])

    def _moved(self, hunk: _Hunk, index: int) -> tuple[str, int] | None:
        key = hunk.added[index][1]
        if not key:
            return None  # a blank line moves with anything
        scored: list[tuple[int, tuple[int, int]]] = []
        for candidate in self.removed_by_key.get(key, []):
            if self.hunks[candidate[0]].source_path == hunk.source_path:
                continue  # the same file (before a rename): a reordering, not a move
            scored.append((_block_weight(hunk, index, self.hunks[candidate[0]], candidate[1]), candidate))
        if not scored:
            return None
        scored.sort(reverse=True)
        best, (hunk_index, removed_index) = scored[0]
        if best < MIN_MOVED or (len(scored) > 1 and scored[1][0] == best):
            return None  # too little text to call a move, or two equally likely sources
        source = self.hunks[hunk_index]
        return source.source_path, source.removed[removed_index][0]


def _block_weight(added: _Hunk, index: int, removed: _Hunk, at: int) -> int:
    """Alphanumeric characters of the line and of the neighbours that match on both sides."""
    weight = _weight(added.added[index][1])
    for step in (-1, 1):
        for distance in range(1, _NEIGHBOURS + 1):
            i, j = index + step * distance, at + step * distance
            if not (0 <= i < len(added.added) and 0 <= j < len(removed.removed)):
                break
            if added.added[i][1] != removed.removed[j][1]:
                break
            weight += _weight(added.added[i][1])
    return weight


def _rewrapped(hunk: _Hunk, index: int) -> tuple[str, int] | None:
    """The removed line holding the first character of added line ``index`` (re-wrapped)."""
    offset = sum(len(key) for _, key in hunk.added[:index])
    if not hunk.added[index][1]:
        return None
    seen = 0
    for line, key in hunk.removed:
        seen += len(key)
        if offset < seen:
            return hunk.source_path, line
    return None


def read_moves(repo: Path, commits: Sequence[str], *, max_lines: int = 40_000) -> dict[str, CommitMoves | None]:
    """The index of each commit's diff against its only parent (one git call for all); None
    for a merge, the root commit, a commit not in the clone, or a diff of more than
    ``max_lines`` changed lines."""
    found: dict[str, CommitMoves | None] = dict.fromkeys(commits)
    if not commits:
        return found
    try:
        output = run_git(
            repo,
            ["diff-tree", "--stdin", "-p", "-U0", "-M", "--no-color", "--no-ext-diff"],
            check=False,
            stdin="".join(f"{commit}\n" for commit in commits).encode(),
        )
    except SourceError:
        return found
    # Each commit's patch follows a line of its id (none for a merge or the root commit).
    for block in _COMMIT_LINE.split(output.decode("utf-8", errors="replace"))[1:]:
        commit, _newline, patch = block.partition("\n")
        if commit in found:
            found[commit] = _index(commit, patch, max_lines)
    return found


def _index(commit: str, diff: str, max_lines: int) -> CommitMoves | None:
    try:
        patches = PatchSet(diff)
    except UnidiffParseError:
        return None
    if not patches or sum(p.added + p.removed for p in patches) > max_lines:
        return None
    moves = CommitMoves(commit=commit)
    for patch in patches:
        if patch.is_binary_file:
            continue
        source_path = _strip(patch.source_file)
        target_path = _strip(patch.target_file)
        for piece in patch:
            hunk = _Hunk(source_path=source_path)
            for diff_line in piece:
                if diff_line.is_removed and diff_line.source_line_no is not None:
                    hunk.removed.append((diff_line.source_line_no, _key(diff_line.value)))
                elif diff_line.is_added and diff_line.target_line_no is not None:
                    hunk.added.append((diff_line.target_line_no, _key(diff_line.value)))
            number = len(moves.hunks)
            moves.hunks.append(hunk)
            for index, (line, _) in enumerate(hunk.added):
                moves.added_at[target_path, line] = (number, index)
            for index, (_, key) in enumerate(hunk.removed):
                if key:
                    moves.removed_by_key[key].append((number, index))
    return moves


def _strip(path: str) -> str:
    return path[2:] if path.startswith(("a/", "b/")) else path
