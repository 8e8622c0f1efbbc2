"""A sync into a brand-new SQLite file, written with the standard library's sqlite3.

A first sync of a clone is bound by start-up and writing: loading SQLAlchemy cost about a
fifth of its CPU. A new file holds nothing to migrate, merge or compare with, so this module
creates it at the latest schema (`prdigest.store.sqlite_head`) and writes exactly the rows
the store would: the same batches (`prdigest.store.record_batches`), the same record JSON,
texts and hashes (`prdigest.store.record_texts`), the same search rows
(`prdigest.store.search_text`) and statements of the same effect, in the same order.
`benchmarks/compare_sync.py` compares every table with the store's; tests compare them too.

When the file turns out not to be new (another process created it first) or the recording
is not at this code's latest revision, `create` answers None and the caller opens the
store as usual.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prdigest.errors import ConfigError, NotFound
from prdigest.store import sqlite_head
from prdigest.store.quick import BUSY_TIMEOUT_S, encode_sync_state, search_stamp
from prdigest.store.record_batches import (
    Batch,
    OnRecord,
    UpsertStats,
    by_repository,
    plan_batch,
    write_in_batches,
)
from prdigest.store.record_texts import TextDigests, text_refs, wanted_digests, with_texts
from prdigest.store.search_text import build_document, parse_facts, parse_narratives

if TYPE_CHECKING:  # records written here are plain (a git sync) or models; neither loads pydantic
    from prdigest.models.plain_records import AnyPullRequest
    from prdigest.models.pullrequest import PullRequest

_PR_COLUMNS = (
    "repository_id",
    "number",
    "title",
    "state",
    "author",
    "created_at",
    "updated_at",
    "merged_at",
    "closed_at",
    "head_sha",
    "additions",
    "deletions",
    "changed_files",
    "source",
    "record",
    "record_hash",
    "texts",
)
_TIMES = frozenset({"created_at", "updated_at", "merged_at", "closed_at"})
# What an insert that finds the row already there sets: every column but the key.
_UPDATED = [c for c in _PR_COLUMNS if c not in ("repository_id", "number")]
_INSERT_PR = (
    f"INSERT INTO pull_requests ({', '.join(_PR_COLUMNS)}) VALUES ({', '.join('?' for _ in _PR_COLUMNS)}) "
    f"ON CONFLICT (repository_id, number) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in _UPDATED)}"
)
_ROW_COLUMNS = _PR_COLUMNS[1:]  # an update sets every column of `pr_row` (the number too)
_UPDATE_PR = f"UPDATE pull_requests SET {', '.join(f'{c} = ?' for c in _ROW_COLUMNS)} WHERE id = ?"
_INSERT_TEXT = "INSERT INTO file_texts (digest, body) VALUES (?, ?) ON CONFLICT (digest) DO NOTHING"
_TEXT_CHUNK = 500  # as `prdigest.store.file_texts`
_INDEX_BATCH = 200  # as `prdigest.store.search_store`


def _stored_time(value: datetime | None) -> str | None:
    """A naive UTC time as SQLAlchemy's SQLite ``DateTime`` stores it."""
    if value is None:
        return None
    if value.tzinfo is None:  # always, after `to_naive_utc`; the same text, made in C
        return value.isoformat(" ", "microseconds")
    return (
        f"{value.year:04d}-{value.month:02d}-{value.day:02d} "
        f"{value.hour:02d}:{value.minute:02d}:{value.second:02d}.{value.microsecond:06d}"
    )


def _values(row: dict[str, Any], columns: Sequence[str]) -> list[Any]:
    return [_stored_time(row[c]) if c in _TIMES else row[c] for c in columns]


def _marks(values: Sequence[object]) -> str:
    return ", ".join("?" for _ in values)


class NewSqliteFile:
    """The parts of `prdigest.store.Store` a sync uses, on a SQLite file it has just created."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._connection = connection
        self.url = f"sqlite:///{path}"
        self._repo_ids: dict[str, int] = {}
        self._text_digests = TextDigests()
        self._stored_texts: set[str] = set()

    @classmethod
    def create(cls, path: Path) -> NewSqliteFile | None:
        """Create ``path`` at the latest schema; None when it exists (or appears meanwhile)
        or there is no recording of the latest schema."""
        recording = sqlite_head.recorded()
        if recording is None or path.exists():
            return None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"cannot create the database folder {path.parent}: {exc.strerror}") from exc
        # The writer thread uses the connection while the caller's thread waits for it.
        connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
        try:
            # What the store's engine sets on every connection (`prdigest.store.database`),
            # but the journal: while the file fills, a rollback journal without syncs. In WAL
            # every page was written twice (log, then checkpoint) and the writer spent about
            # a quarter of its CPU on it; a rollback journal holds only the few pages that
            # existed before each transaction (the file grows). Still safe if the process is
            # killed (the journal is rolled back on the next open); `close` turns WAL on.
            connection.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
            connection.execute("PRAGMA synchronous=OFF")
            connection.execute("PRAGMA foreign_keys=ON")
            with _transaction(connection):
                created = connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
                if created:
                    for sql, parameters in sqlite_head.statements(recording):
                        connection.execute(sql, parameters)
        except BaseException:
            connection.close()
            raise
        if not created:  # another process made it first: the store opens (and checks) it
            connection.close()
            return None
        return cls(connection, path)

    def close(self) -> None:
        """Leave the file in WAL, as the store keeps it, then close."""
        connection = self._connection
        # Still without a sync: with one, the switch would first wait for the whole new file
        # to reach the disk. A reader holding the file keeps it in rollback mode: the
        # store's next write connection turns WAL on (it sets it on every connection).
        with suppress(sqlite3.Error):
            connection.execute("PRAGMA journal_mode=WAL")
        connection.close()

    def __enter__(self) -> NewSqliteFile:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def is_empty(self) -> bool:
        return self._connection.execute("SELECT id FROM repositories LIMIT 1").fetchone() is None

    # --- records ---------------------------------------------------------------------

    def upsert_prs(
        self,
        records: Iterable[AnyPullRequest],
        *,
        batch_size: int = 200,
        batch_bytes: int = 8 * 1024 * 1024,
        on_record: OnRecord[AnyPullRequest] | None = None,
    ) -> UpsertStats:
        """As `prdigest.store.Store.upsert_prs` (same batches, same helper thread)."""
        return write_in_batches(
            records,
            self._write_batch,
            threaded=True,
            batch_size=batch_size,
            batch_bytes=batch_bytes,
            on_record=on_record,
        )

    def _write_batch(self, batch: Batch[AnyPullRequest]) -> list[tuple[AnyPullRequest, str]]:
        """As `Store._upsert_batch`: one transaction, the same statements' effects in order."""
        connection = self._connection
        outcomes: list[tuple[AnyPullRequest, str]] = []
        saved_texts: set[str] = set()
        with _transaction(connection):
            for repo, prs in by_repository(batch).items():
                repo_id = self._repository_id(repo)
                numbers = [pr.number for pr, _json in prs]
                existing = {
                    int(number): (int(pr_id), str(record_hash))
                    for pr_id, number, record_hash in connection.execute(
                        "SELECT id, number, record_hash FROM pull_requests "
                        f"WHERE repository_id = ? AND number IN ({_marks(numbers)})",
                        (repo_id, *numbers),
                    )
                }
                plan = plan_batch(repo_id, prs, existing, self._text_digests, self._stored_texts)
                outcomes += plan.outcomes
                texts = [
                    (digest, text.encode("utf-8") if isinstance(text, str) else text)
                    for digest, text in sorted(plan.new_texts.items())
                ]
                for start in range(0, len(texts), _TEXT_CHUNK):
                    connection.executemany(_INSERT_TEXT, texts[start : start + _TEXT_CHUNK])
                saved_texts.update(plan.new_texts)
                if plan.new_rows:
                    connection.executemany(_INSERT_PR, [_values(row, _PR_COLUMNS) for row in plan.new_rows])
                if plan.changed_rows:
                    connection.executemany(
                        _UPDATE_PR, [[*_values(row, _ROW_COLUMNS), row["_id"]] for row in plan.changed_rows]
                    )
                written_numbers = [row["number"] for row in plan.new_rows + plan.changed_rows]
                if written_numbers:
                    written = connection.execute(
                        f"SELECT id, number FROM pull_requests WHERE repository_id = ? "
                        f"AND number IN ({_marks(written_numbers)})",
                        (repo_id, *written_numbers),
                    ).fetchall()
                    records = {int(pr_id): plan.written[int(number)] for pr_id, number in written}
                    self._index(sorted(records), records)
        self._stored_texts |= saved_texts  # committed
        return outcomes

    def _repository_id(self, full_name: str) -> int:
        cached = self._repo_ids.get(full_name)
        if cached is not None:
            return cached
        connection = self._connection
        query = "SELECT id FROM repositories WHERE full_name = ?"
        found = connection.execute(query, (full_name,)).fetchone()
        if found is None:
            # ON CONFLICT: another process may add the same repository at the same time.
            connection.execute(
                "INSERT INTO repositories (full_name) VALUES (?) ON CONFLICT (full_name) DO NOTHING", (full_name,)
            )
            found = connection.execute(query, (full_name,)).fetchone()
        self._repo_ids[full_name] = int(found[0])
        return int(found[0])

    def get_pr(self, repository: str, number: int) -> PullRequest:
        row = self._connection.execute(
            "SELECT p.record, p.texts FROM pull_requests p JOIN repositories r ON r.id = p.repository_id "
            "WHERE r.full_name = ? AND p.number = ?",
            (repository, number),
        ).fetchone()
        if row is None:
            raise NotFound(f"no pull request {repository}#{number} in the database")
        refs = text_refs(row[1])
        wanted = sorted(wanted_digests(refs))
        found: dict[str, str] = {}
        for start in range(0, len(wanted), _TEXT_CHUNK):
            chunk = wanted[start : start + _TEXT_CHUNK]
            for digest, body in self._connection.execute(
                f"SELECT digest, body FROM file_texts WHERE digest IN ({_marks(chunk)})", chunk
            ):
                found[str(digest)] = bytes(body).decode("utf-8")
        return with_texts(str(row[0]), refs, found)

    # --- search index (as `prdigest.store.search_store`) ----------------------------------

    _STAMPS = (
        "SELECT p.id, {hash}, f.cache_key, n.count, n.last_id, s.stamp FROM pull_requests p "
        "JOIN repositories r ON r.id = p.repository_id "
        "LEFT JOIN facts f ON f.pull_request_id = p.id "
        "LEFT JOIN (SELECT pull_request_id, COUNT(*) AS count, MAX(id) AS last_id "
        "FROM narratives GROUP BY pull_request_id) n ON n.pull_request_id = p.id "
        "LEFT JOIN pr_search s ON s.rowid = p.id WHERE p.id IN ({ids}) ORDER BY p.id"
    )

    def _index(self, ids: list[int], known: dict[int, tuple[AnyPullRequest, str]]) -> None:
        """`search_store.index_in_transaction` with every record known."""
        for start in range(0, len(ids), _INDEX_BATCH):
            chunk = ids[start : start + _INDEX_BATCH]
            query = self._STAMPS.format(hash="NULL", ids=_marks(chunk))
            stale = []
            for pr_id, _hash, facts_key, count, last_id, current in self._connection.execute(query, chunk):
                stamp = search_stamp(known[int(pr_id)][1], facts_key, count, last_id)
                if current != stamp:
                    stale.append((int(pr_id), stamp))
            if stale:
                self._write_search_rows(stale, {pr_id: record for pr_id, (record, _hash) in known.items()})

    def _write_search_rows(self, batch: list[tuple[int, str]], known: dict[int, AnyPullRequest]) -> None:
        connection = self._connection
        ids = [pr_id for pr_id, _stamp in batch]
        record = "NULL" if all(pr_id in known for pr_id in ids) else "p.record"
        loaded: dict[int, tuple[AnyPullRequest | str, str | None, list[str]]] = {}
        for pr_id, stored, facts_body in connection.execute(
            f"SELECT p.id, {record}, f.body FROM pull_requests p "
            f"LEFT JOIN facts f ON f.pull_request_id = p.id WHERE p.id IN ({_marks(ids)})",
            ids,
        ):
            loaded[int(pr_id)] = (known[int(pr_id)] if int(pr_id) in known else str(stored), facts_body, [])
        for pr_id, body in connection.execute(
            f"SELECT pull_request_id, body FROM narratives WHERE pull_request_id IN ({_marks(ids)}) ORDER BY id", ids
        ):
            if int(pr_id) in loaded:
                loaded[int(pr_id)][2].append(str(body))
        values = []
        for pr_id, stamp in batch:
            if pr_id not in loaded:
                continue
            pr, facts_body, narrative_bodies = loaded[pr_id]
            document = build_document(
                _stored_record(pr) if isinstance(pr, str) else pr,
                None if facts_body is None else parse_facts(facts_body),
                parse_narratives(narrative_bodies),
            )
            values.append((pr_id, stamp, document.title, document.body, document.comments, document.report))
        connection.execute(f"DELETE FROM pr_search WHERE rowid IN ({_marks(ids)})", ids)
        if values:
            connection.executemany(
                "INSERT INTO pr_search (rowid, stamp, title, body, comments, report) VALUES (?, ?, ?, ?, ?, ?)",
                values,
            )

    def reindex_search(self, repository: str, indexed: set[int]) -> None:
        """`search_store.reindex(store, repository, indexed=...)`: rows this sync did not
        index (none, unless another process wrote meanwhile), then orphan rows."""
        connection = self._connection
        rows = connection.execute(
            "SELECT p.id, p.number FROM pull_requests p JOIN repositories r ON r.id = p.repository_id "
            "WHERE r.full_name = ? ORDER BY p.id",
            (repository,),
        ).fetchall()
        ids = [int(pr_id) for pr_id, number in rows if int(number) not in indexed]
        stale: list[tuple[int, str]] = []
        for start in range(0, len(ids), _INDEX_BATCH):
            chunk = ids[start : start + _INDEX_BATCH]
            query = self._STAMPS.format(hash="p.record_hash", ids=_marks(chunk))
            for pr_id, record_hash, facts_key, count, last_id, current in connection.execute(query, chunk):
                stamp = search_stamp(str(record_hash), facts_key, count, last_id)
                if current != stamp:
                    stale.append((int(pr_id), stamp))
        for start in range(0, len(stale), _INDEX_BATCH):
            with _transaction(connection):
                self._write_search_rows(stale[start : start + _INDEX_BATCH], {})
        with _transaction(connection):
            connection.execute("DELETE FROM pr_search WHERE rowid NOT IN (SELECT id FROM pull_requests)")

    # --- sync state ------------------------------------------------------------------

    def get_sync_state(self, repository: str, source: str) -> dict[str, Any]:
        row = self._connection.execute(
            "SELECT s.state FROM sync_states s JOIN repositories r ON r.id = s.repository_id "
            "WHERE r.full_name = ? AND s.source = ?",
            (repository, source),
        ).fetchone()
        return {} if row is None else dict(json.loads(row[0]))

    def set_sync_state(self, repository: str, source: str, state: dict[str, Any]) -> None:
        encoded = encode_sync_state(state)
        connection = self._connection
        with _transaction(connection):
            repo_id = self._repository_id(repository)
            current = connection.execute(
                "SELECT state FROM sync_states WHERE repository_id = ? AND source = ?", (repo_id, source)
            ).fetchone()
            if current is None or current[0] != encoded:
                connection.execute(
                    "INSERT INTO sync_states (repository_id, source, state) VALUES (?, ?, ?) "
                    "ON CONFLICT (repository_id, source) DO UPDATE SET state = excluded.state",
                    (repo_id, source, encoded),
                )


def _stored_record(record: str) -> PullRequest:
    from prdigest.models.pullrequest import PullRequest  # only for rows this sync did not write

    return PullRequest.model_validate_json(record)


@contextmanager
def _transaction(connection: sqlite3.Connection) -> Iterator[None]:
    """A write transaction (the write lock from its start, as the store's), committed at the end."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        with suppress(sqlite3.Error):
            connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
