"""Blame past moves: lines blamed on a commit that only moved or re-wrapped them are blamed
again in that commit's parent, where they were (`sources/git/moves.py` says where).

Bounded so that a pass costs about what plain blame does: at most ``hops`` commits back
per line, and at each hop only the ``commits`` commits with the most lines are read (each
commit's diff once per pass, shared by the fixes through `MovesCache`).
"""

from __future__ import annotations

import threading
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from prdigest.sources.git.blame import BlamedLine, blame_ranges
from prdigest.sources.git.moves import CommitMoves, read_moves

_CACHED = 64  # commits' diffs kept: movers recur across the fixes of a history


@dataclass(frozen=True)
class FollowedLine:
    """A changed line of a fix: who wrote it, and the commits that only moved it since
    (nearest first; empty when plain blame already named the writer)."""

    path: str  # in the fix's parent
    blamed: BlamedLine
    moved_by: tuple[str, ...] = ()


class MovesCache:
    """Each commit's diff read once per pass (thread-safe: fixes are blamed in a pool)."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self._lock = threading.Lock()
        self._moves: dict[str, CommitMoves | None] = {}

    def of(self, commits: list[str]) -> dict[str, CommitMoves | None]:
        with self._lock:
            known = {commit: self._moves[commit] for commit in commits if commit in self._moves}
        found = read_moves(self.repo, [commit for commit in commits if commit not in known])
        with self._lock:
            for commit, moves in found.items():
                if len(self._moves) >= _CACHED:
                    self._moves.pop(next(iter(self._moves)))
                self._moves[commit] = moves
        return {**known, **found}


def follow_moves(
    lines: list[FollowedLine], cache: MovesCache, *, hops: int = 2, commits: int = 4
) -> list[FollowedLine]:
    """``lines`` with each line a mover was blamed for blamed again where it came from."""
    current = list(lines)
    pending = list(range(len(current)))
    for _hop in range(hops):
        by_commit: dict[str, list[int]] = defaultdict(list)
        for index in pending:
            commit = current[index].blamed.commit
            if commit is not None:
                by_commit[commit].append(index)
        ranked = Counter({commit: len(indexes) for commit, indexes in by_commit.items()}).most_common(commits)
        pending = []
        read = cache.of([commit for commit, _count in ranked])
        for commit, _count in ranked:
            moves = read[commit]
            if moves is not None:
                pending += _reblame(current, by_commit[commit], moves, cache.repo)
        if not pending:
            break
    return current


def _reblame(current: list[FollowedLine], indexes: list[int], moves: CommitMoves, repo: Path) -> list[int]:
    """Blame again, in the mover's parent, the lines it moved; the indexes changed."""
    sources: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))  # path -> line -> indexes
    for index in indexes:
        line = current[index].blamed
        source = moves.source_of(line.path, line.line)
        if source is not None:
            sources[source[0]][source[1]].append(index)
    changed: list[int] = []
    for path, at in sources.items():
        found = {line.final: line for line in blame_ranges(repo, f"{moves.commit}^", path, _ranges(sorted(at)))}
        for number, waiting in at.items():
            again = found.get(number)
            if again is None:
                continue  # git could not blame it there: the mover stays its author
            for index in waiting:
                old = current[index]
                current[index] = FollowedLine(old.path, again, (*old.moved_by, moves.commit))
                changed.append(index)
    return changed


def _ranges(numbers: list[int]) -> list[tuple[int, int]]:
    """Sorted line numbers as (first, count) runs."""
    runs: list[tuple[int, int]] = []
    for number in numbers:
        if runs and runs[-1][0] + runs[-1][1] == number:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((number, 1))
    return runs
