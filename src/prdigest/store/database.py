"""Where the database is and how to connect: SQLite by default, any SQLAlchemy URL allowed.

Several processes may write one database at once (two syncs, a sync and an analyze, workers
on several machines over PostgreSQL). On SQLite every write transaction therefore starts
with ``BEGIN IMMEDIATE``: it takes the write lock before its first read, so a transaction
never reads, then finds another writer got there first and fails with "database is locked"
(a deferred transaction cannot wait for that lock; an immediate one waits up to the busy
timeout). Reads start a plain ``BEGIN`` and see one snapshot. This needs pysqlite's own
transaction handling off (``isolation_level = None``), which also makes DDL transactional,
so a migration is all or nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

from prdigest.errors import ConfigError, StoreError
from prdigest.store.quick import DB_ENV_VAR, default_database_path

# How long a writer waits for another one's transaction before giving up (SQLite).
BUSY_TIMEOUT_MS = 60_000
_WRITE_OPTION = "prdigest_write"


def resolve_database_url(db: str | None, environ: Mapping[str, str] | None = None) -> str:
    """Turn ``--db`` (a path or a SQLAlchemy URL), ``PRDIGEST_DB`` or the default into a URL.

    Creates nothing: `prdigest.store.Store.open` creates the file (and its folder) only
    for the commands that write records.
    """
    env = os.environ if environ is None else environ
    value = db or env.get(DB_ENV_VAR) or str(default_database_path())
    if "://" in value:
        try:
            make_url(value)
        except ArgumentError as exc:
            raise ConfigError(f"not a valid database URL: {redact_url(value)}") from exc
        return value
    path = Path(value).expanduser()
    if path.is_dir():
        raise ConfigError(f"database path is a directory: {path}")
    return f"sqlite:///{path.resolve()}"


def redact_url(url: str) -> str:
    """A URL safe to print: the password, if any, replaced."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<unparsable database URL>"


def display_name(url: str) -> str:
    """How messages name the database: the file of a SQLite URL, else the redacted URL."""
    path = sqlite_file(url)
    return str(path) if path is not None else redact_url(url)


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL; None for other databases and in-memory SQLite."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(str(parsed.database))


@dataclass(frozen=True)
class SqliteAccess:
    """How to open a SQLite file: writable, read-only, or immutable (read-only file system)."""

    read_only: bool = False
    # Immutable: SQLite takes no locks and reads no -wal/-shm (it cannot create them on a
    # read-only file system). Only right when nothing writes the file meanwhile.
    immutable: bool = False


def _sqlite_connect_settings(read_only: bool) -> Any:
    def on_connect(dbapi_connection: Any, _record: object) -> None:
        dbapi_connection.isolation_level = None  # transactions are begun by `_sqlite_begin`
        cursor = dbapi_connection.cursor()
        # First, so that every later statement (the WAL switch too) waits for other writers.
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        if not read_only:
            # WAL lets readers (the web UI) work while a sync writes; NORMAL is durable under
            # WAL for committed transactions even if the process is killed.
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return on_connect


def _sqlite_begin(connection: Connection) -> None:
    write = bool(connection.get_execution_options().get(_WRITE_OPTION, False))
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def _sqlite_read_pragmas(dbapi_connection: object, _record: object) -> None:
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA mmap_size=268435456")  # 256 MiB; pages are shared with the OS cache
    cursor.execute("PRAGMA cache_size=-32768")  # 32 MiB per connection
    cursor.close()


def add_read_pragmas(engine: Engine) -> bool:
    """Bigger page cache and memory-mapped reads for connections opened from now on (SQLite).

    Returns whether anything was added (nothing on other databases).
    """
    if engine.dialect.name != "sqlite":
        return False
    event.listen(engine, "connect", _sqlite_read_pragmas)
    return True


def make_engine(url: str, access: SqliteAccess | None = None) -> Engine:
    """An engine for ``url``; ``access`` says how to open a SQLite file (default: writable)."""
    access = access or SqliteAccess()
    path = sqlite_file(url)
    if url.startswith("sqlite") and path is None:
        # In memory: one private database per connection, no other writer: pysqlite's defaults.
        return create_engine(url, connect_args={"check_same_thread": False})
    if path is not None:
        return _sqlite_engine(url, path, access)
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        # psycopg 3 is the supported driver; plain postgresql:// would pick psycopg2.
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    try:
        return create_engine(url, pool_pre_ping=True)
    except (NoSuchModuleError, ImportError) as exc:
        scheme = url.split("://", 1)[0]
        raise StoreError(
            f"unsupported database URL scheme {scheme!r} in {redact_url(url)}: "
            "use a file path, sqlite:///PATH or postgresql://…"
        ) from exc


def _sqlite_engine(url: str, path: Path, access: SqliteAccess) -> Engine:
    import sqlite3

    if access.read_only:
        options = "mode=ro&immutable=1" if access.immutable else "mode=ro"
        target = f"file:{quote(str(path))}?{options}"

        def connect() -> sqlite3.Connection:
            return sqlite3.connect(target, uri=True, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000)

        engine = create_engine(url, creator=connect)
    else:
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000})
    event.listen(engine, "connect", _sqlite_connect_settings(access.read_only))
    event.listen(engine, "begin", _sqlite_begin)
    return engine


# A constant key of PostgreSQL's advisory locks: migrations of one database run one at a time.
_MIGRATION_LOCK_KEY = 0x70726469  # "prdi"


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction that writes: on SQLite it holds the write lock from its first statement."""
    with engine.connect() as connection:
        connection.execution_options(**{_WRITE_OPTION: True})
        with connection.begin():
            yield connection


@contextmanager
def migration_lock(engine: Engine) -> Iterator[Connection]:
    """A write transaction that no other process's migration runs beside.

    SQLite: ``BEGIN IMMEDIATE`` already excludes every other writer. PostgreSQL: a
    transaction-scoped advisory lock, released at commit or rollback.
    """
    with write_transaction(engine) as connection:
        if engine.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK_KEY})")
        yield connection
