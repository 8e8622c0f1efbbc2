"""Number collisions: several first-parent commits that carry the same ``(#N)``.

A PR landed in two commits, an empty follow-up commit reusing the subject, a commit pushed
straight to the branch whose subject cites an issue ``(#N)``, or an older project's history
merged in below, numbered from 1 again: git alone cannot say which commit "is" #N. The
evidence, strongest first, stated once here:

1. ``refs/pull/N/head``, when the clone fetched it: the merge commit whose second parent it
   is, else the commit nearest after the head was committed.
2. The numbers around each commit on the main line: PR numbers grow as PRs land, so a PR's
   commit sits among commits of nearby numbers, while a commit citing an old issue sits
   among much larger ones. When only one of the commits is in sequence, it is #N.
3. Otherwise (several in sequence: an older project's history merged in below, numbered
   from 1 again; or none) the newest commit with a real diff: the tip's own numbering. An
   empty commit never wins over one that changed files.

Every other commit is then told apart: one with the kept commit's title, landed within
`SAME_PR_WINDOW` of it, is a part of the same PR (the record is marked incomplete when that
part changed files, since its diff is not in the record); anything else is another pull
request that happens to carry the number (noted, never a gap of this PR).

Found by one cheap ``git log --first-parent --format`` over subjects (no patches) before the
main walk, so the decision is known when the newest commit streams past.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from prdigest.sources.git.pull_refs import PullRef, list_pull_refs
from prdigest.sources.git.recognize import recognize
from prdigest.sources.git.runner import PendingGitText, try_git_text

# git processes listing the diffs of colliding commits at the same time.
_DIFFS_AT_ONCE = 8
# Two commits of one title this close are one PR landed in parts (a squash and its follow-up).
SAME_PR_WINDOW = timedelta(days=14)
# PR commits read on each side of a commit on the main line, how many are needed, and how far
# a number may be from theirs (at least _IN_SEQUENCE_MIN, else a share of the number) and
# still be in sequence.
_NEIGHBOURS = 5
_NEIGHBOURS_NEEDED = 3
_IN_SEQUENCE_MIN = 20
_IN_SEQUENCE_SHARE = 0.1
# A pull ref's head is committed before its squash lands; allow for clocks a little off.
_CLOCK_SLACK = timedelta(hours=1)

if TYPE_CHECKING:  # loaded with the first collision: the listing starts without it
    from prdigest.models.plain_records import PlainSameNumberCommit


class Resolution(StrEnum):
    # The other commits are empty (no file changed): nothing is missing.
    EMPTY_SKIPPED = "empty-commit-skipped"
    # Another commit with the same title, landed close by, changed files too: the PR landed
    # in parts; the kept record is marked incomplete and names the part not read.
    SAME_PR_PARTS = "same-pr-in-several-commits"
    # The other commits with diffs are other pull requests carrying the same number (an
    # older history merged in, a commit citing an issue): noted, not a gap of this PR.
    ANOTHER_PR = "another-pr-same-number"
    # Every commit was empty: the newest is kept (there is no real diff to prefer).
    ALL_EMPTY = "all-empty-newest-kept"


class KeptBy(StrEnum):
    PULL_REF = "pull-ref"
    NEIGHBOURS = "neighbouring-numbers"
    NEWEST = "newest-with-diff"


@dataclass(frozen=True, slots=True)
class Collision:
    number: int
    kept: str  # the SHA that becomes the record
    others: tuple[PlainSameNumberCommit, ...]
    resolution: Resolution
    kept_by: KeptBy = KeptBy.NEWEST


@dataclass(frozen=True, slots=True)
class _Listed:
    sha: str
    when: datetime
    subject: str
    parents: tuple[str, ...]


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
    return PendingGitText(repo, ["log", "--first-parent", "--format=%H%x1f%ct%x1f%P%x1f%s", tip])


def plan_collisions(repo: Path, tip: str, listed: PendingGitText | None = None) -> CollisionPlan:
    """Find every number carried by several first-parent commits of `tip`, and decide.

    ``listed``: the listing of `tip` started earlier by `list_subjects`."""
    listing = (listed or list_subjects(repo, tip)).result()
    plan = CollisionPlan()
    if not listing:
        return plan
    by_number: dict[int, list[_Listed]] = {}
    sequence: list[int] = []  # the numbers of the PR commits, in main-line order
    position: dict[str, int] = {}  # a PR commit's place in `sequence`
    for line in listing.split("\n"):
        sha, _sep, rest = line.partition("\x1f")
        plan.chain.append(sha)
        stamp, _sep, rest = rest.partition("\x1f")
        parents, _sep, subject = rest.partition("\x1f")
        found = recognize(subject)
        if found is None:
            continue
        try:
            when = datetime.fromtimestamp(int(stamp), UTC)
        except ValueError:
            continue
        position[sha] = len(sequence)
        sequence.append(found.number)
        by_number.setdefault(found.number, []).append(_Listed(sha, when, subject, tuple(parents.split())))
    colliding = {number: commits for number, commits in by_number.items() if len(commits) > 1}
    if not colliding:
        return plan
    refs = {ref.number: ref for ref in list_pull_refs(repo) if ref.number in colliding}
    files_changed = _files_changed(repo, [c.sha for commits in colliding.values() for c in commits])
    for number, commits in colliding.items():
        in_sequence = {c.sha for c in commits if _in_sequence(number, position[c.sha], sequence)}
        plan.by_number[number] = decide(number, commits, files_changed, refs.get(number), in_sequence)
    return plan


def _in_sequence(number: int, at: int, sequence: list[int]) -> bool:
    """Whether `number` is near the numbers of the PR commits around place `at` on the main
    line (False too when there are too few of them to say)."""
    around = sequence[max(0, at - _NEIGHBOURS) : at] + sequence[at + 1 : at + 1 + _NEIGHBOURS]
    if len(around) < _NEIGHBOURS_NEEDED:
        return False
    distance = abs(number - statistics.median(around))
    return distance <= max(_IN_SEQUENCE_MIN, _IN_SEQUENCE_SHARE * number)


def decide(
    number: int,
    commits: list[_Listed],
    files_changed: dict[str, int],
    ref: PullRef | None = None,
    in_sequence: frozenset[str] | set[str] = frozenset(),
) -> Collision:
    """The commit that is #`number` and what each other one is. `commits` is newest first."""
    from prdigest.models.plain_records import PlainSameNumberCommit

    real = [c for c in commits if files_changed.get(c.sha, 0) > 0]
    candidates = real or commits
    kept, kept_by = _by_pull_ref(candidates, ref), KeptBy.PULL_REF
    fitting = [c for c in candidates if c.sha in in_sequence]
    if kept is None and len(fitting) == 1 and len(candidates) > 1:
        kept, kept_by = fitting[0], KeptBy.NEIGHBOURS
    if kept is None:
        kept, kept_by = candidates[0], KeptBy.NEWEST
    others = tuple(
        PlainSameNumberCommit(
            sha=c.sha,
            committed_at=c.when,
            subject=c.subject,
            files_changed=files_changed.get(c.sha, 0),
            another_pr=not _same_pr(kept, c),
        )
        for c in commits
        if c.sha != kept.sha
    )
    if not real:
        resolution = Resolution.ALL_EMPTY
    elif any(o.files_changed and not o.another_pr for o in others):
        resolution = Resolution.SAME_PR_PARTS
    elif any(o.files_changed for o in others):
        resolution = Resolution.ANOTHER_PR
    else:
        resolution = Resolution.EMPTY_SKIPPED
    return Collision(number=number, kept=kept.sha, others=others, resolution=resolution, kept_by=kept_by)


def _by_pull_ref(candidates: list[_Listed], ref: PullRef | None) -> _Listed | None:
    """The commit `refs/pull/N/head` leads to: the merge of it, else the first landed after it."""
    if ref is None:
        return None
    merged = [c for c in candidates if ref.sha in c.parents[1:]]
    if merged:
        return merged[0]
    after = [c for c in candidates if c.when >= ref.committed_at - _CLOCK_SLACK]
    return min(after, key=lambda c: c.when) if after else None


def _same_pr(kept: _Listed, other: _Listed) -> bool:
    """One PR landed in parts: the same title (the number aside), close in time."""
    return _title_key(kept.subject) == _title_key(other.subject) and abs(kept.when - other.when) <= SAME_PR_WINDOW


def _title_key(subject: str) -> str:
    found = recognize(subject)
    title = subject if found is None else (found.branch or found.title)
    return "".join(ch for ch in title.casefold() if ch.isalnum())


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
