"""Where a fix's changed lines came from: blame in the clone, after analysis.

For every merged PR of a repository synced from a clone that says it fixes something (its
title, or an issue it fixes) and has no `Facts.origins` yet, blame the old side of its code
files' changes in its commit's parent (`sources/git/blame.py`) and map each blamed commit to
the stored PR it belongs to (its squash commit or branch head, else any PR whose commits
hold it). A line blamed on a commit that only moved or re-wrapped it is blamed again where
that commit took it from (pipeline/blame_moves.py), so the writer is counted, not the mover.
The result is kept in the facts, so each PR is blamed once per analysis (and again when
``analyzers/versions.ORIGINS_VERSION`` says the stored counts were made another way); the cross-PR pass
(pipeline/lineage.py) decides from it which earlier PR is the root cause.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from prdigest.analyzers.verdict.fixes import claims_fix
from prdigest.analyzers.versions import CURRENT_ORIGINS_MARK, ORIGINS_MARK, ORIGINS_VERSION
from prdigest.errors import NotFound
from prdigest.models.facts import Facts, LineOrigin, LineOrigins, ReferencesFacts
from prdigest.pipeline.blame_moves import FollowedLine, MovesCache, follow_moves
from prdigest.sources.git.blame import ChangedLines, blame_changed_lines
from prdigest.sources.git.clone_location import CLONE_STATE, clone_from_state
from prdigest.store.facts_store import get_facts
from prdigest.store.lineage_queries import (
    CommitOwners,
    PRMoment,
    facts_containing,
    facts_lacking,
    pr_moments,
    replace_facts,
)
from prdigest.store.store import Store

_BLAMED_STATUSES = frozenset({"modified", "renamed", "removed"})
_MAX_ORIGINS = 16  # (commit, file) counts kept per PR, most lines first
_LOOKED_UP = 3  # unmapped commits looked up in the records (a scan each), most lines first
_NO_REFS = ReferencesFacts()
_PAGE = 50  # facts written a page at a time: an interrupted pass keeps what it blamed


@dataclass
class OriginStats:
    blamed: int = 0
    lines: int = 0
    skipped_no_commit: int = 0


def clone_of(store: Store, repository: str) -> Path | None:
    """The clone the repository was last synced from, if it is still there."""
    return clone_from_state(store.get_sync_state(repository, CLONE_STATE))


def stale_origins(store: Store, repository: str) -> bool:
    """Whether some fix of the repository was blamed by an older ``ORIGINS_VERSION``."""
    return facts_lacking(store, repository, ORIGINS_MARK, CURRENT_ORIGINS_MARK)


def blame_fixes(
    store: Store,
    repository: str,
    clone: Path,
    *,
    jobs: int = 2,
    on_progress: Callable[[int, int], None] | None = None,
) -> OriginStats:
    """Blame every fix of the repository that has no origins yet, or origins an older
    ``ORIGINS_VERSION`` made; write them to its facts."""
    stats = OriginStats()
    moments = pr_moments(store, repository)
    pending = _pending_fixes(store, repository, moments)
    if on_progress is not None:
        on_progress(0, len(pending))
    owners = CommitOwners(store, repository, moments)
    moves = MovesCache(clone)

    def blame_one(item: Facts) -> tuple[Facts, list[FollowedLine] | None, bool, str | None]:
        try:
            record = store.get_pr(repository, item.number)
        except NotFound:
            return item, None, False, None
        commit = record.merge_commit_sha
        paths = [
            f.path
            for f in item.files.files
            if f.category == "source" and not f.generated and not f.binary and f.status in _BLAMED_STATUSES
        ]
        if commit is None:
            return item, None, False, None
        changed = blame_changed_lines(clone, commit, paths)
        if changed is None:
            return item, None, False, commit
        return item, follow_moves(_followed(changed), moves), changed.limited, commit

    done = 0
    page: list[Facts] = []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for item, blamed, limited, commit in pool.map(blame_one, pending):
            done += 1
            if commit is None:
                stats.skipped_no_commit += 1
            else:
                origins = _origins(commit, blamed, limited, item.number, owners.number_of)
                page.append(item.model_copy(update={"origins": origins}))
                stats.blamed += 1
                stats.lines += origins.lines
            if len(page) >= _PAGE:
                replace_facts(store, repository, page)
                page = []
            if on_progress is not None:
                on_progress(done, len(pending))
    replace_facts(store, repository, page)
    return stats


def _pending_fixes(store: Store, repository: str, titles: dict[int, PRMoment]) -> list[Facts]:
    """Merged PRs that claim a fix and were not blamed since their last analysis."""
    found: dict[int, Facts] = {}
    for item in facts_containing(store, repository, '"relation":"fixes"'):
        found[item.number] = item
    merged = {number for number, moment in titles.items() if moment.state == "merged"}
    for number in sorted(merged):
        if number in found:
            continue
        moment = titles.get(number)
        if moment is None or not claims_fix(moment.title, _NO_REFS):
            continue
        stored = get_facts(store, repository, number)
        if stored is not None:
            found[number] = stored
    return [
        item
        for number, item in sorted(found.items())
        if number in merged
        and (item.origins is None or item.origins.version < ORIGINS_VERSION)
        and claims_fix(titles[number].title, item.references)
    ]


def _followed(changed: ChangedLines) -> list[FollowedLine]:
    return [FollowedLine(path, blamed) for path, blamed in changed.lines]


def _origins(
    commit: str,
    blamed: list[FollowedLine] | None,
    limited: bool,
    own: int,
    number_of: Callable[[str, int, bool], int | None],
) -> LineOrigins:
    if blamed is None:
        return LineOrigins(commit=commit, version=ORIGINS_VERSION)
    counts: Counter[tuple[str, str, str | None]] = Counter()  # (writer, path, nearest mover)
    by_path: Counter[str] = Counter()
    boundary = 0
    for line in blamed:
        by_path[line.path] += 1
        if line.blamed.commit is None:
            boundary += 1
        else:
            counts[line.blamed.commit, line.path, line.moved_by[0] if line.moved_by else None] += 1
    ranked = counts.most_common()
    by_commit: Counter[str] = Counter()
    for (sha, _path, _mover), lines in ranked:
        by_commit[sha] += lines
    numbers = {sha: number_of(sha, own, index < _LOOKED_UP) for index, (sha, _n) in enumerate(by_commit.most_common())}
    unattributed = boundary + sum(lines for sha, lines in by_commit.items() if numbers[sha] is None)
    origins = [
        LineOrigin(
            commit=sha,
            number=numbers[sha],
            path=path,
            lines=lines,
            moved_by=mover,
            moved_by_number=None if mover is None else number_of(mover, own, False),
        )
        for (sha, path, mover), lines in ranked[:_MAX_ORIGINS]
    ]
    return LineOrigins(
        commit=commit,
        lines=len(blamed),
        lines_by_path=dict(sorted(by_path.items())),
        origins=origins,
        unattributed=unattributed,
        limited=limited,
        version=ORIGINS_VERSION,
    )
