"""Where the database is and how to connect: SQLite by default, any SQLAlchemy URL allowed."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from prdigest.errors import ConfigError

DB_ENV_VAR = "PRDIGEST_DB"


def default_database_path() -> Path:
    """``prdigest.db`` in the user's data directory (XDG on Linux)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("prdigest", appauthor=False)) / "prdigest.db"


def resolve_database_url(db: str | None, environ: Mapping[str, str] | None = None) -> str:
    """Turn ``--db`` (a path or a SQLAlchemy URL), ``PRDIGEST_DB`` or the default into a URL."""
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
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot create the database folder {path.parent}: {exc.strerror}") from exc
    return f"sqlite:///{path.resolve()}"


def redact_url(url: str) -> str:
    """A URL safe to print: the password, if any, replaced."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<unparsable database URL>"


def _sqlite_pragmas(dbapi_connection: object, _record: object) -> None:
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    # WAL lets readers (the web UI) work while a sync writes; NORMAL is durable under WAL
    # for committed transactions even if the process is killed.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


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


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        # psycopg 3 is the supported driver; plain postgresql:// would pick psycopg2.
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    return create_engine(url, pool_pre_ping=True)
