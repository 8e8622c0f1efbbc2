"""Writing records in batches, without database code: what a batch writes (`plan_batch`) and
the helper thread that commits batches while the next one is read (`write_in_batches`).

Shared by the store (`prdigest.store.store`, SQLAlchemy) and a new SQLite file's sync
(`prdigest.store.new_sqlite`, sqlite3), so both decide and write exactly the same rows.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from prdigest.store.record_texts import TextDigests, record_json, row_hash, split_texts, text_size

if TYPE_CHECKING:
    from prdigest.models.plain_records import AnyPullRequest

# (record, its JSON) as serialized while the previous batch is written.
R = TypeVar("R", bound="AnyPullRequest")  # the store writes models, a new file plain records too
Batch = list[tuple[R, str]]
# Writes one batch in one transaction; returns (record, outcome) for each.
WriteBatch = Callable[[Batch[R]], list[tuple[R, str]]]
OnRecord = Callable[[R, str], None]


@dataclass
class UpsertStats:
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0

    @property
    def total(self) -> int:
        return self.inserted + self.updated + self.unchanged


def to_naive_utc(value: datetime | None) -> datetime | None:
    """Stored times are naive UTC: SQLite keeps no zone and PostgreSQL must compare alike."""
    if value is None or value.tzinfo is None:
        return value
    return value.astimezone(UTC).replace(tzinfo=None)


def pr_row(pr: AnyPullRequest, record: str, texts: str | None, digest: str) -> dict[str, Any]:
    """A ``pull_requests`` row but its ids (times as naive UTC ``datetime``)."""
    return {
        "number": pr.number,
        "title": pr.title,
        "state": pr.state.value,
        "author": pr.author,
        "created_at": to_naive_utc(pr.created_at),
        "updated_at": to_naive_utc(pr.updated_at),
        "merged_at": to_naive_utc(pr.merged_at),
        "closed_at": to_naive_utc(pr.closed_at),
        "head_sha": pr.head_sha,
        "additions": pr.additions,
        "deletions": pr.deletions,
        "changed_files": pr.changed_files_count if pr.changed_files_count is not None else len(pr.files),
        "source": pr.source,
        "record": record,
        "record_hash": digest,
        "texts": texts,
    }


@dataclass
class BatchPlan(Generic[R]):
    """What one repository's part of a batch writes."""

    new_rows: list[dict[str, Any]] = field(default_factory=list)  # with repository_id
    changed_rows: list[dict[str, Any]] = field(default_factory=list)  # with _id, lowest first
    new_texts: dict[str, str | bytes] = field(default_factory=dict)  # by digest
    written: dict[int, tuple[R, str]] = field(default_factory=dict)  # number: record, hash
    outcomes: list[tuple[R, str]] = field(default_factory=list)


def plan_batch(
    repo_id: int,
    prs: list[tuple[R, str]],
    existing: Mapping[int, tuple[int, str]],
    digests: TextDigests,
    stored_texts: set[str],
) -> BatchPlan[R]:
    """Rows and texts to write for one repository's records, given its ``existing`` rows
    (number: id, record_hash): equal records are skipped, texts already stored left out."""
    plan: BatchPlan[R] = BatchPlan()
    for pr, encoded in prs:
        texts, by_digest = split_texts(pr, digests)
        digest = row_hash(encoded, texts)
        found = existing.get(pr.number)
        if found is not None and found[1] == digest:
            plan.outcomes.append((pr, "unchanged"))
            continue
        plan.written[pr.number] = (pr, digest)
        for text_digest, text in by_digest.items():
            # A text seen again comes back as ``str``: keep the UTF-8 bytes already
            # made for it in this batch rather than encoding it a second time.
            if text_digest not in stored_texts and not isinstance(plan.new_texts.get(text_digest), bytes):
                plan.new_texts[text_digest] = text
        row = pr_row(pr, encoded, texts, digest)
        if found is None:
            plan.new_rows.append({"repository_id": repo_id, **row})
            plan.outcomes.append((pr, "inserted"))
        else:
            plan.changed_rows.append({"_id": found[0], **row})
            plan.outcomes.append((pr, "updated"))
    plan.changed_rows.sort(key=lambda row: int(row["_id"]))  # lock order: see lock_pull_requests
    return plan


def by_repository(batch: Batch[R]) -> dict[str, list[tuple[R, str]]]:
    """A batch's records by repository; later records of the same PR win, as across batches."""
    latest = {(pr.repository, pr.number): (pr, encoded) for pr, encoded in batch}
    grouped: dict[str, list[tuple[R, str]]] = {}
    for pr, encoded in latest.values():
        grouped.setdefault(pr.repository, []).append((pr, encoded))
    return grouped


def write_in_batches(
    records: Iterable[R],
    write: WriteBatch[R],
    *,
    threaded: bool,
    batch_size: int,
    batch_bytes: int,
    on_record: OnRecord[R] | None,
) -> UpsertStats:
    """Serialize records into batches here while ``write`` commits the previous one on a
    helper thread (see `prdigest.store.store.Store.upsert_prs`)."""
    stats = UpsertStats()
    writer = _BatchWriter(write, stats, threaded=threaded)
    batch: Batch[R] = []
    source = _WatchedRecords(records)
    try:
        size = 0
        for record in source:
            encoded = record_json(record)
            batch.append((record, encoded))
            size += len(encoded) + text_size(record)
            if len(batch) >= batch_size or size >= batch_bytes:
                writer.submit(batch)
                batch, size = [], 0
                writer.report(on_record)
        if batch:
            writer.submit(batch)
    except BaseException:
        # The source failed (git died at a later commit, Ctrl-C): the records it gave before
        # are whole, so the batch not yet handed over is committed before the error goes on.
        # The resume state is saved only after a complete sync, so nothing is skipped later.
        if source.failed and batch:
            writer.submit(batch)
        raise
    finally:
        writer.finish()  # batches already handed over are committed, even on an error
    writer.report(on_record)
    return stats


class _WatchedRecords(Generic[R]):
    """The records, remembering whether reading the next one raised (the source failed)."""

    def __init__(self, records: Iterable[R]) -> None:
        self._records = iter(records)
        self.failed = False

    def __iter__(self) -> Iterator[R]:
        return self

    def __next__(self) -> R:
        try:
            return next(self._records)
        except StopIteration:
            raise
        except BaseException:
            self.failed = True
            raise


class _BatchWriter(Generic[R]):
    """Writes batches with ``write`` on one helper thread, in order.

    The queue holds at most one batch, so memory stays at about three batches (one being
    serialized, one waiting, one being written). An error in the thread stops it and is
    re-raised by the next ``submit`` or by ``finish``.
    """

    def __init__(self, write: WriteBatch[R], stats: UpsertStats, *, threaded: bool) -> None:
        self.write = write
        self.stats = stats
        self._done: queue.SimpleQueue[list[tuple[R, str]]] = queue.SimpleQueue()
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self._todo: queue.Queue[Batch[R] | None] = queue.Queue(maxsize=1)
        if threaded:
            self._thread = threading.Thread(target=self._run, name="prdigest-store-writer", daemon=True)
            self._thread.start()

    def submit(self, batch: Batch[R]) -> None:
        if self._thread is None:
            self._done.put(self.write(batch))
            return
        while True:
            self._raise_error()
            try:
                self._todo.put(batch, timeout=0.5)  # re-check for an error while the thread is busy
                return
            except queue.Full:
                continue

    def finish(self) -> None:
        if self._thread is not None:
            # The thread may stop on an error with a batch still queued: never block on a
            # full queue that no one empties any more.
            while self._thread.is_alive():
                try:
                    self._todo.put(None, timeout=0.5)
                    break
                except queue.Full:
                    continue
            self._thread.join()
            self._thread = None
        self._raise_error()

    def report(self, on_record: OnRecord[R] | None) -> None:
        """Count (and announce) the records of every batch committed so far."""
        while not self._done.empty():
            for pr, outcome in self._done.get():
                setattr(self.stats, outcome, getattr(self.stats, outcome) + 1)
                if on_record is not None:
                    on_record(pr, outcome)

    def _run(self) -> None:
        while (batch := self._todo.get()) is not None:
            try:
                self._done.put(self.write(batch))
            except BaseException as exc:  # handed to the caller's thread, which re-raises it
                self._error = exc
                return

    def _raise_error(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            raise error
