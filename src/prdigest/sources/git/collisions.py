"""Number collisions: several first-parent commits that carry the same ``(#N)``.

A PR landed in two commits, an empty follow-up commit reusing the subject, or an older
project's history merged in: git alone cannot say which commit "is" #N. The rule, stated
once here: the newest commit with a real diff is the record; an empty commit never wins over
one that changed files; every other commit is kept as a note on the record (and the record
is marked incomplete when a dropped commit changed files too, since its diff is missing).

Found by one cheap ``git log --first-parent --format`` over subjects (no patches) before the
main walk, so the decision is known when the newest commit streams past.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from prdigest.sources.git.recognize import recognize
from prdigest.sources.git.runner import PendingGitText, try_git_text

# git processes listing the diffs of colliding commits at the same time.
_DIFFS_AT_ONCE = 8

if TYPE_CHECKING:  # loaded with the first collision: the listing starts without it
    from prdigest.models.plain_records import PlainSameNumberCommit


class Resolution(StrEnum):
    # An empty commit (no file changed) was passed over for an older one with a real diff.
    EMPTY_SKIPPED = "empty-commit-skipped"
    # Several commits changed files: the newest is the record, the rest are noted, and the
    # record is marked incomplete.
    NEWEST_OF_SEVERAL = "newest-of-several-kept"
    # Every commit was empty: the newest is kept (there is no real diff to prefer).
    ALL_EMPTY = "all-empty-newest-kept"


@dataclass(frozen=True, slots=True)
class Collision:
    number: int
    kept: str  # the SHA that becomes the record
    others: tuple[PlainSameNumberCommit, ...]
    resolution: Resolution


@dataclass(slots=True)
class CollisionPlan:
    """What the walk needs: the commit kept for each colliding number, and the notes."""

    by_number: dict[int, Collision] = field(default_factory=dict)
    # Every first-parent commit of the tip, newest first, as the listing gave them: the
    # chain merges' branches stop at, so it need not be listed again (empty: not listed).
    chain: list[str] = field(default_factory=list)

    def skip(self, number: int, sha: str) -> bool:
        """Whether this commit of `number` is not the one that becomes the record."""
        collision = self.by_number.get(number)
        return collision is not None and collision.kept != sha

    def notes_for(self, number: int) -> Collision | None:
        return self.by_number.get(number)


def list_subjects(repo: Path, tip: str) -> PendingGitText:
    """Start the subjects listing `plan_collisions` reads (started early, git lists meanwhile)."""
    return PendingGitText(repo, ["log", "--first-parent", "--format=%H%x1f%ct%x1f%s", tip])


def plan_collisions(repo: Path, tip: str, listed: PendingGitText | None = None) -> CollisionPlan:
    """Find every number carried by several first-parent commits of `tip`, and decide.

    ``listed``: the listing of `tip` started earlier by `list_subjects`."""
    listing = (listed or list_subjects(repo, tip)).result()
    plan = CollisionPlan()
    if not listing:
        return plan
    by_number: dict[int, list[tuple[str, datetime, str]]] = {}
    for line in listing.split("\n"):
        sha, _sep, rest = line.partition("\x1f")
        plan.chain.append(sha)
        stamp, _sep, subject = rest.partition("\x1f")
        found = recognize(subject)
        if found is None:
            continue
        try:
            when = datetime.fromtimestamp(int(stamp), UTC)
        except ValueError:
            continue
        by_number.setdefault(found.number, []).append((sha, when, subject))
    colliding = {number: commits for number, commits in by_number.items() if len(commits) > 1}
    files_changed = _files_changed(repo, [sha for commits in colliding.values() for sha, _when, _subject in commits])
    for number, commits in colliding.items():
        plan.by_number[number] = _decide(number, commits, files_changed)
    return plan


def _files_changed(repo: Path, shas: list[str]) -> dict[str, int]:
    """Files each commit changed, asked for a few at a time: git answers them side by side."""
    counts: dict[str, int] = {}
    for start in range(0, len(shas), _DIFFS_AT_ONCE):
        calls = [_FilesChanged(repo, sha) for sha in shas[start : start + _DIFFS_AT_ONCE]]
        try:
            counts.update((call.sha, call.count()) for call in calls)
        finally:
            for call in calls:
                call.close()
    return counts


def _decide(number: int, commits: list[tuple[str, datetime, str]], files_changed: dict[str, int]) -> Collision:
    from prdigest.models.plain_records import PlainSameNumberCommit

    # `commits` is newest first (git log order).
    sized = [(sha, when, subject, files_changed[sha]) for sha, when, subject in commits]
    real = [item for item in sized if item[3] > 0]
    kept = real[0] if real else sized[0]
    if not real:
        resolution = Resolution.ALL_EMPTY
    elif len(real) == 1:
        resolution = Resolution.EMPTY_SKIPPED
    else:
        resolution = Resolution.NEWEST_OF_SEVERAL
    others = tuple(
        PlainSameNumberCommit(sha=sha, committed_at=when, subject=subject, files_changed=files)
        for sha, when, subject, files in sized
        if sha != kept[0]
    )
    return Collision(number=number, kept=kept[0], others=others, resolution=resolution)


class _FilesChanged:
    """Files the commit changed against its first parent (a root commit: against nothing),
    asked for now and counted later."""

    def __init__(self, repo: Path, sha: str) -> None:
        self.repo, self.sha = repo, sha
        self._diff = PendingGitText(repo, ["diff", "--no-renames", "--name-only", f"{sha}^1", sha])

    def count(self) -> int:
        listing = self._diff.result()
        if listing is None:
            listing = try_git_text(self.repo, ["show", "--name-only", "--format=", self.sha])
        return len([line for line in (listing or "").split("\n") if line.strip()])

    def close(self) -> None:
        self._diff.close()
