"""Sync: write what a source yields into the store, then save where the next run resumes.

The source only reads; this is the one place its records and its resume state are written.
The resume state is saved only after every record is committed, so an interrupted run
leaves the previous one and the next run reads again what this one may have missed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

from prdigest.errors import NotFound
from prdigest.sources.git.clone_location import CLONE_STATE, clone_state
from prdigest.sources.git.source import GitSource
from prdigest.sources.protocol import Source, StoredLookup
from prdigest.store.new_sqlite import NewSqliteFile
from prdigest.store.record_batches import UpsertStats

if TYPE_CHECKING:
    from prdigest.models.plain_records import AnyPullRequest
    from prdigest.models.pullrequest import PullRequest
    from prdigest.store.store import Store

# Called after each record is committed with "inserted", "updated" or "unchanged".
OnRecord = Callable[["AnyPullRequest", str], None]


@dataclass
class SyncStats:
    """Filled as records are committed, so a caller still has the counts after an exception."""

    inserted: int = 0
    updated: int = 0
    unchanged: int = 0
    state_saved: bool = False

    @property
    def total(self) -> int:
        return self.inserted + self.updated + self.unchanged

    def add(self, stats: UpsertStats) -> None:
        self.inserted += stats.inserted
        self.updated += stats.updated
        self.unchanged += stats.unchanged


def sync_source(
    store: Store | NewSqliteFile,
    source: Source,
    *,
    fresh: bool = False,
    on_record: OnRecord | None = None,
    stats: SyncStats | None = None,
) -> SyncStats:
    """Write the source's records new since its saved state (all of them with ``fresh``),
    then save the state it hands back. Pass ``stats`` to keep the counts if the run fails.

    ``store`` may be a `NewSqliteFile` (a new SQLite file written without SQLAlchemy), which
    stores exactly what the store would."""
    stats = stats if stats is not None else SyncStats()
    repository = source.repository
    state = {} if fresh or repository is None else store.get_sync_state(repository, source.name)
    records: Iterable[AnyPullRequest]
    if isinstance(store, NewSqliteFile) and isinstance(source, GitSource):
        # Its plain records, written without loading the models (pydantic): the same rows.
        records = source.plain_pull_requests(state)
    else:
        records = source.pull_requests(state, stored_lookup(store))
    written: set[int] = set()  # numbers of this repository's records written (and indexed) here

    def committed(pr: AnyPullRequest, outcome: str) -> None:
        if outcome != "unchanged" and pr.repository == repository:
            written.add(pr.number)
        if on_record is not None:
            on_record(pr, outcome)

    if source.commit_each:
        for record in records:
            stats.add(_upsert(store, [record], committed))
    else:
        stats.add(_upsert(store, records, committed))
    # Searchable right after the sync, not after the next analyze or server start. The
    # whole repository: rows a killed earlier sync wrote but did not index are caught up too
    # (cheap: only rows whose record changed are rebuilt; rows written above were indexed
    # with their write and are not read again).
    if isinstance(store, NewSqliteFile):
        if repository is not None:
            store.reindex_search(repository, written)
    else:
        from prdigest.store import search_store  # SQLAlchemy: not loaded for a new SQLite file

        search_store.reindex(store, repository, indexed=written)
    if isinstance(source, GitSource) and repository is not None:
        # Where the history is: blaming a fix's lines after analysis reads this clone.
        store.set_sync_state(repository, CLONE_STATE, clone_state(Path(source.repo)))
    resume = source.resume_state()
    if resume is not None and repository is not None:
        store.set_sync_state(repository, source.name, resume)
        stats.state_saved = True
    return stats


def _upsert(store: Store | NewSqliteFile, records: Iterable[AnyPullRequest], committed: OnRecord) -> UpsertStats:
    if isinstance(store, NewSqliteFile):
        return store.upsert_prs(records, on_record=committed)
    return store.upsert_prs(cast("Iterable[PullRequest]", records), on_record=committed)


def stored_lookup(store: Store | NewSqliteFile) -> StoredLookup:
    """The store as a source sees it: the stored record of a PR, or None."""

    def lookup(repository: str, number: int) -> PullRequest | None:
        try:
            return store.get_pr(repository, number)
        except NotFound:
            return None

    return lookup
