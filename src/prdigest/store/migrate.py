"""Bring a database to the schema this prdigest knows, refusing one written by a newer one.

Two processes opening a new database at once must not both create its tables: the upgrade
runs inside `migration_lock` (SQLite's write lock, PostgreSQL's advisory lock) and reads the
revision again once it holds the lock, so the second process finds the work done.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Connection, Engine, inspect, text

from prdigest.errors import SchemaTooNew
from prdigest.store.database import migration_lock
from prdigest.store.revisions import HEAD_REVISION, KNOWN_REVISIONS

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
__all__ = ["HEAD_REVISION", "KNOWN_REVISIONS", "current_revision", "downgrade", "needs_upgrade", "upgrade"]


def current_revision(connection: Connection) -> str | None:
    if not inspect(connection).has_table("alembic_version"):
        return None
    row = connection.execute(text("SELECT version_num FROM alembic_version")).first()
    return None if row is None else str(row[0])


def needs_upgrade(engine: Engine) -> bool:
    """Whether the schema is behind this prdigest's (raises `SchemaTooNew` when ahead)."""
    with engine.connect() as connection:
        revision = current_revision(connection)
    _check_known(revision)
    return revision != HEAD_REVISION


def upgrade(engine: Engine) -> None:
    """Run pending migrations; cheap when the database is already at head."""
    if not needs_upgrade(engine):
        return
    with migration_lock(engine) as connection:
        revision = current_revision(connection)  # again: another process may have upgraded
        _check_known(revision)
        if revision is None and _empty_sqlite(connection):
            from prdigest.store import sqlite_head

            recording = sqlite_head.recorded()
            if recording is not None:  # a new file: straight to the latest schema
                sqlite_head.create(connection, recording)
                return
        if revision != HEAD_REVISION:
            _run_alembic(connection, "upgrade", "head")


def _empty_sqlite(connection: Connection) -> bool:
    if connection.dialect.name != "sqlite":
        return False
    return int(connection.exec_driver_sql("SELECT count(*) FROM sqlite_master").scalar_one()) == 0


def downgrade(engine: Engine, revision: str) -> None:
    with migration_lock(engine) as connection:
        _run_alembic(connection, "downgrade", revision)


def _check_known(revision: str | None) -> None:
    if revision is not None and revision not in KNOWN_REVISIONS:
        raise SchemaTooNew(
            f"the database has schema revision {revision!r}, newer than this prdigest knows "
            f"(up to {HEAD_REVISION!r}); upgrade prdigest"
        )


def _run_alembic(connection: Connection, action: str, target: str) -> None:
    # Imported here: alembic is only needed when the schema actually changes.
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["connection"] = connection
    getattr(command, action)(config, target)
