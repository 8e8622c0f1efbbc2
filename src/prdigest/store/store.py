"""The store: the only code that writes SQL. Pull requests, sync state, facts, links, narratives.

Upserts are idempotent on (repository, number): a record equal to the stored one (same
content hash) is not written at all, so syncing the same history twice leaves the database
identical. Writes are committed in batches; a process killed mid-sync loses at most the
batch in flight, and a re-run completes it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, and_, bindparam, delete, select, update

from prdigest.errors import ConfigError, NotFound, PrdigestError, StoreError
from prdigest.models.pullrequest import PullRequest
from prdigest.store import migrate
from prdigest.store.database import (
    SqliteAccess,
    add_read_pragmas,
    display_name,
    make_engine,
    sqlite_file,
    write_transaction,
)
from prdigest.store.failures import DATABASE_ERRORS, as_store_error
from prdigest.store.file_texts import TextDigests, load_records, save_texts
from prdigest.store.quick import encode_sync_state, writable
from prdigest.store.record_batches import UpsertStats, by_repository, plan_batch, to_naive_utc, write_in_batches
from prdigest.store.schema import pull_requests, repositories, sync_states
from prdigest.store.upsert import insert_rows


@dataclass(frozen=True)
class PRSummary:
    repository: str
    number: int
    title: str
    state: str
    author: str | None
    merged_at: datetime | None
    created_at: datetime | None
    additions: int
    deletions: int
    changed_files: int
    source: str


class Store:
    """A handle on one database. Use `Store.open(url)`; close it when done.

    The SQLAlchemy engine is private to the `prdigest.store` package: every query lives in
    this package (this class, the ``*_store`` modules, `read_models`, `generation`), and
    the code above it calls those. Tests that truly need raw SQL use `prdigest.store.testing`.
    """

    def __init__(self, engine: Engine, url: str, *, read_only: bool = False) -> None:
        self._engine = engine
        self.url = url
        # Opened read-only (a read command on a file it may not write): caches (facts,
        # narratives, the search index) are computed but not stored; records cannot be written.
        self.read_only = read_only
        self._repo_ids: dict[str, int] = {}
        self._text_digests = TextDigests()
        self._stored_texts: set[str] = set()  # digests committed by this handle (never deleted)

    @classmethod
    def open(cls, url: str, *, create: bool = True, read_only_ok: bool = False) -> Store:
        """Open (and migrate) the database at ``url``.

        ``create``: a SQLite file (and its folder) that does not exist is created; without it
        a missing file is an error, so read commands never leave an empty database behind.
        ``read_only_ok``: a SQLite file this process may not write (read-only file or file
        system) is opened read-only instead of failing.
        """
        where = display_name(url)
        access = SqliteAccess()
        path = sqlite_file(url)
        if path is not None:
            if not path.exists():
                if not create:
                    raise StoreError(f"no database at {path}: `prdigest sync` or `prdigest import` creates it")
                _make_folder(path)
            elif not writable(path):
                if not read_only_ok:
                    raise StoreError(f"{path} is read-only ({_why_read_only(path)}): this command writes to it")
                access = _read_only_access(path)
        engine = make_engine(url, access)
        try:
            if not access.read_only:
                migrate.upgrade(engine)
            elif migrate.needs_upgrade(engine):
                raise StoreError(
                    f"{where} is read-only and its schema is older than this prdigest's: "
                    "run any writing command (e.g. `prdigest analyze`) where it is writable first"
                )
        except PrdigestError:
            engine.dispose()
            raise
        except DATABASE_ERRORS as exc:
            engine.dispose()
            raise as_store_error(exc, where) from exc
        return cls(engine, url, read_only=access.read_only)

    def _write(self) -> AbstractContextManager[Connection]:
        """A write transaction (on SQLite it holds the write lock from its first statement)."""
        if self.read_only:
            raise StoreError(f"{display_name(self.url)} is read-only: this command needs to write to it")
        return write_transaction(self._engine)

    def reopenable(self) -> bool:
        """Whether another process can open this database by its URL (any but in-memory SQLite)."""
        return not _in_memory(self._engine)

    def close(self) -> None:
        self._engine.dispose()

    def tune_for_serving(self) -> None:
        """Read-heavy settings for a long-running server (SQLite: bigger cache, mmap reads).

        Call it once the start-up writes (migrations, reindexing) are done: it closes the
        pooled connections so that every later one gets the settings.
        """
        if add_read_pragmas(self._engine):
            self._engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # --- repositories ----------------------------------------------------------------

    def repository_id(self, connection: Connection, full_name: str, *, create: bool = True) -> int | None:
        cached = self._repo_ids.get(full_name)
        if cached is not None:
            return cached
        found = connection.execute(
            select(repositories.c.id).where(repositories.c.full_name == full_name)
        ).scalar_one_or_none()
        if found is None:
            if not create:
                return None
            # ON CONFLICT: another process may add the same repository at the same time.
            insert_rows(connection, repositories, [{"full_name": full_name}], keys=["full_name"])
            found = connection.execute(
                select(repositories.c.id).where(repositories.c.full_name == full_name)
            ).scalar_one()
        self._repo_ids[full_name] = int(found)
        return int(found)

    def repositories(self) -> list[str]:
        with self._engine.connect() as connection:
            rows = connection.execute(select(repositories.c.full_name).order_by(repositories.c.full_name))
            return [str(r[0]) for r in rows]

    # --- pull requests ---------------------------------------------------------------

    def upsert_prs(
        self,
        records: Iterable[PullRequest],
        *,
        batch_size: int = 200,
        batch_bytes: int = 8 * 1024 * 1024,
        on_record: Callable[[PullRequest, str], None] | None = None,
    ) -> UpsertStats:
        """Insert new records, update changed ones, skip equal ones; commit every batch.

        ``on_record(pr, outcome)`` is called (in this thread) after each record's batch is
        committed, with ``inserted``, ``updated`` or ``unchanged`` (for progress bars).

        Records are read and serialized here while the previous batch is written by a
        helper thread (SQLite and hashing release the GIL), so the database's write and
        sync time overlaps the source's work. At most one batch waits for that thread, and a
        batch closes at ``batch_size`` records or ``batch_bytes`` of JSON, whichever comes
        first, so memory stays bounded however large single records get (whole file contents).
        """
        return write_in_batches(
            records,
            self._upsert_batch,
            threaded=not _in_memory(self._engine),
            batch_size=batch_size,
            batch_bytes=batch_bytes,
            on_record=on_record,
        )

    def _upsert_batch(self, batch: list[tuple[PullRequest, str]]) -> list[tuple[PullRequest, str]]:
        """Write one batch of (record, its JSON) in one transaction; returns (record, outcome)."""
        from prdigest.store import search_store  # it builds on this module

        outcomes: list[tuple[PullRequest, str]] = []
        saved_texts: set[str] = set()
        with self._write() as connection:
            for repo, prs in by_repository(batch).items():
                repo_id = self.repository_id(connection, repo)
                assert repo_id is not None  # created when missing
                _lock_repository(connection, repo_id)
                numbers = [pr.number for pr, _json in prs]
                existing = {
                    int(row.number): (int(row.id), str(row.record_hash))
                    for row in connection.execute(
                        select(pull_requests.c.id, pull_requests.c.number, pull_requests.c.record_hash).where(
                            and_(pull_requests.c.repository_id == repo_id, pull_requests.c.number.in_(numbers))
                        )
                    )
                }
                plan = plan_batch(repo_id, prs, existing, self._text_digests, self._stored_texts)
                outcomes += plan.outcomes
                new_rows, changed_rows, new_texts = plan.new_rows, plan.changed_rows, plan.new_texts
                save_texts(connection, new_texts)
                saved_texts.update(new_texts)
                # ON CONFLICT: a row another writer added since the read above is overwritten
                # with this (equal or newer) record instead of failing the batch.
                insert_rows(connection, pull_requests, new_rows, keys=["repository_id", "number"], update=_PR_COLUMNS)
                if changed_rows:
                    connection.execute(
                        update(pull_requests).where(pull_requests.c.id == bindparam("_id")), changed_rows
                    )
                if new_rows or changed_rows:
                    written = connection.execute(
                        select(pull_requests.c.id, pull_requests.c.number).where(
                            and_(
                                pull_requests.c.repository_id == repo_id,
                                pull_requests.c.number.in_([row["number"] for row in new_rows + changed_rows]),
                            )
                        )
                    ).all()
                    records = {int(row.id): plan.written[int(row.number)] for row in written}
                    # Searchable from the moment the record is committed (same transaction).
                    search_store.index_in_transaction(self, connection, sorted(records), records)
        self._stored_texts |= saved_texts  # committed
        return outcomes

    def get_pr(self, repository: str, number: int) -> PullRequest:
        with self._engine.connect() as connection:
            row = connection.execute(_RECORD_OF_ONE, {"repository": repository, "number": number}).first()
            if row is None:
                raise NotFound(f"no pull request {repository}#{number} in the database")
            return load_records(connection, [(row[0], row[1])])[0]

    def pr_id(self, repository: str, number: int) -> int:
        """The stored PR's row id (what facts and narratives are saved under)."""
        found = self.find_pr_id(repository, number)
        if found is None:
            raise NotFound(f"no pull request {repository}#{number} in the database")
        return found

    def find_pr_id(self, repository: str, number: int) -> int | None:
        """The stored PR's row id, or None when the PR is not in the store."""
        with self._engine.connect() as connection:
            row = connection.execute(_ID_OF_ONE, {"repository": repository, "number": number}).first()
        return None if row is None else int(row[0])

    def list_prs(
        self,
        *,
        repository: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[PRSummary]:
        """Newest first (by merge time, then creation time, then number)."""
        query = _summary_query(repository, since, until)
        query = query.order_by(
            pull_requests.c.merged_at.desc().nulls_last(),
            pull_requests.c.created_at.desc().nulls_last(),
            pull_requests.c.number.desc(),
        ).offset(offset)
        if limit is not None:
            query = query.limit(limit)
        with self._engine.connect() as connection:
            return [_summary(row) for row in connection.execute(query)]

    def iter_prs(self, *, repository: str | None = None, since: datetime | None = None) -> Iterator[PullRequest]:
        """Every stored record, oldest number first, read in pages to keep memory flat."""
        last_id = 0
        while True:
            query = (
                select(pull_requests.c.id, pull_requests.c.record, pull_requests.c.texts)
                .join(repositories, repositories.c.id == pull_requests.c.repository_id)
                .where(pull_requests.c.id > last_id)
                .order_by(pull_requests.c.id)
                .limit(200)
            )
            if repository is not None:
                query = query.where(repositories.c.full_name == repository)
            if since is not None:
                query = query.where(_merged_or_created(since))
            with self._engine.connect() as connection:
                rows = connection.execute(query).all()
                if not rows:
                    return
                loaded = load_records(connection, [(row.record, row.texts) for row in rows])
            yield from loaded
            last_id = int(rows[-1].id)

    def count_prs(self, repository: str | None = None) -> int:
        from sqlalchemy import func

        query = select(func.count()).select_from(pull_requests)
        if repository is not None:
            query = query.join(repositories, repositories.c.id == pull_requests.c.repository_id).where(
                repositories.c.full_name == repository
            )
        with self._engine.connect() as connection:
            return int(connection.execute(query).scalar_one())

    # --- sync state ------------------------------------------------------------------

    def get_sync_state(self, repository: str, source: str) -> dict[str, Any]:
        with self._engine.connect() as connection:
            row = connection.execute(
                select(sync_states.c.state)
                .join(repositories, repositories.c.id == sync_states.c.repository_id)
                .where(and_(repositories.c.full_name == repository, sync_states.c.source == source))
            ).first()
        return {} if row is None else dict(json.loads(row[0]))

    def set_sync_state(self, repository: str, source: str, state: dict[str, Any]) -> None:
        encoded = encode_sync_state(state)
        with self._write() as connection:
            repo_id = self.repository_id(connection, repository)
            current = connection.execute(
                select(sync_states.c.state).where(
                    and_(sync_states.c.repository_id == repo_id, sync_states.c.source == source)
                )
            ).first()
            if current is None or current[0] != encoded:
                row = {"repository_id": repo_id, "source": source, "state": encoded}
                insert_rows(connection, sync_states, [row], keys=["repository_id", "source"], update=["state"])

    def is_empty(self) -> bool:
        """Whether no repository (hence no record) is stored."""
        with self._engine.connect() as connection:
            return connection.execute(select(repositories.c.id).limit(1)).first() is None

    def delete_repository(self, repository: str) -> None:
        with self._write() as connection:
            connection.execute(delete(repositories).where(repositories.c.full_name == repository))
        self._repo_ids.pop(repository, None)


# Every column of a PR row but its key: what an insert that finds the row already there sets.
_PR_COLUMNS = [column.name for column in pull_requests.columns if column.name not in ("id", "repository_id", "number")]


def _lock_repository(connection: Connection, repo_id: int) -> None:
    """PostgreSQL: two batches of one repository take turns, so each reads which of its PRs
    exist and writes them without the other in between (exact counts, no key clashes).
    SQLite's write transactions already run one at a time."""
    if connection.dialect.name == "postgresql":
        connection.execute(
            select(repositories.c.id).where(repositories.c.id == repo_id).with_for_update(key_share=True)
        )


def _make_folder(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot create the database folder {path.parent}: {exc.strerror}") from exc


def _why_read_only(path: Path) -> str:
    try:
        if os.statvfs(path).f_flag & os.ST_RDONLY:
            return "on a read-only file system"
    except OSError:
        pass
    if not os.access(path, os.W_OK):
        return "no write permission on the file"
    return f"no write permission on its folder {path.parent}, where SQLite keeps its log"


def _read_only_access(path: Path) -> SqliteAccess:
    """How to read a file this process may not write.

    SQLite reads a WAL database read-only when its -shm (and -wal) files exist or can be
    created; on a read-only file system with neither it must open the file "immutable"
    (no locks, no log), which is exact only when no log holds committed pages.
    """
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    if os.access(path.parent, os.W_OK) or (wal.exists() and shm.exists()):
        return SqliteAccess(read_only=True)
    if wal.exists() and wal.stat().st_size > 0:
        raise StoreError(
            f"{path} is on a read-only file system next to its write-ahead log {wal.name} but without "
            f"{shm.name}: SQLite cannot read it there; copy the database files to a writable folder"
        )
    return SqliteAccess(read_only=True, immutable=True)


def _in_memory(engine: Engine) -> bool:
    # An in-memory SQLite database is private to one connection (one thread): no helper thread.
    return engine.url.get_backend_name() == "sqlite" and engine.url.database in (None, "", ":memory:")


def _merged_or_created(since: datetime) -> Any:
    from sqlalchemy import func

    return func.coalesce(pull_requests.c.merged_at, pull_requests.c.created_at) >= to_naive_utc(since)


def _summary_query(repository: str | None, since: datetime | None, until: datetime | None) -> Any:
    from sqlalchemy import func

    query = select(
        repositories.c.full_name,
        pull_requests.c.number,
        pull_requests.c.title,
        pull_requests.c.state,
        pull_requests.c.author,
        pull_requests.c.merged_at,
        pull_requests.c.created_at,
        pull_requests.c.additions,
        pull_requests.c.deletions,
        pull_requests.c.changed_files,
        pull_requests.c.source,
    ).join(repositories, repositories.c.id == pull_requests.c.repository_id)
    if repository is not None:
        query = query.where(repositories.c.full_name == repository)
    if since is not None:
        query = query.where(_merged_or_created(since))
    if until is not None:
        query = query.where(func.coalesce(pull_requests.c.merged_at, pull_requests.c.created_at) < to_naive_utc(until))
    return query


def _one_pr(query: Any) -> Any:
    """``query`` narrowed to one PR, found by repository name and number (bound parameters)."""
    return query.join(repositories, repositories.c.id == pull_requests.c.repository_id).where(
        and_(repositories.c.full_name == bindparam("repository"), pull_requests.c.number == bindparam("number"))
    )


# Built once: building a statement costs more than executing it (publishing reads every PR).
_RECORD_OF_ONE = _one_pr(select(pull_requests.c.record, pull_requests.c.texts))
_ID_OF_ONE = _one_pr(select(pull_requests.c.id))


def _summary(row: Any) -> PRSummary:
    return PRSummary(
        repository=row.full_name,
        number=row.number,
        title=row.title,
        state=row.state,
        author=row.author,
        merged_at=row.merged_at,
        created_at=row.created_at,
        additions=row.additions,
        deletions=row.deletions,
        changed_files=row.changed_files,
        source=row.source,
    )
