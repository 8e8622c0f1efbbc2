"""A new SQLite file created straight at the latest schema equals one built by every migration."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from prdigest.store import Store, migrate, sqlite_head
from prdigest.store.database import SqliteAccess, make_engine, migration_lock


def _migrated(path: Path) -> None:
    engine = make_engine(f"sqlite:///{path}", SqliteAccess())
    try:
        with migration_lock(engine) as connection:
            migrate._run_alembic(connection, "upgrade", "head")
    finally:
        engine.dispose()


def _everything(path: Path) -> dict[str, object]:
    """The schema objects (without their page numbers), every table's rows, and the header pragmas."""
    connection = sqlite3.connect(path)
    try:
        master = sorted(connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall())
        rows = {
            name: connection.execute(f'SELECT * FROM "{name}"').fetchall()
            for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        pragmas = {
            name: connection.execute(f"PRAGMA {name}").fetchall()
            for name in ("user_version", "application_id", "journal_mode", "auto_vacuum", "encoding", "page_size")
        }
    finally:
        connection.close()
    return {"master": master, "rows": rows, "pragmas": pragmas}


def test_the_recording_is_what_the_migrations_create(tmp_path: Path) -> None:
    path = tmp_path / "migrated.db"
    _migrated(path)
    connection = sqlite3.connect(path)
    try:
        now = sqlite_head.record(connection, migrate.HEAD_REVISION)
    finally:
        connection.close()
    if os.environ.get("PRDIGEST_UPDATE_GOLDEN"):
        sqlite_head.RECORDING.write_text(json.dumps(now, indent=1) + "\n", encoding="utf-8")
    assert json.loads(sqlite_head.RECORDING.read_text(encoding="utf-8")) == now, (
        "a migration changed the schema: re-record with PRDIGEST_UPDATE_GOLDEN=1"
    )


def test_a_new_database_equals_a_migrated_one(tmp_path: Path) -> None:
    migrated, direct = tmp_path / "migrated.db", tmp_path / "direct.db"
    _migrated(migrated)
    Store.open(f"sqlite:///{direct}").close()
    first, second = _everything(migrated), _everything(direct)
    assert first == second
    master = first["master"]
    assert isinstance(master, list)
    kinds = {row[0] for row in master}
    assert {"table", "index", "trigger"} <= kinds  # FTS tables, report-cache triggers and all
    assert any("VIRTUAL TABLE" in str(row[3]) for row in master)


def test_the_direct_database_is_at_head_and_takes_records(tmp_path: Path) -> None:
    path = tmp_path / "direct.db"
    Store.open(f"sqlite:///{path}").close()
    engine = make_engine(f"sqlite:///{path}", SqliteAccess())
    try:
        assert not migrate.needs_upgrade(engine)
    finally:
        engine.dispose()
    store = Store.open(f"sqlite:///{path}")  # opening again migrates nothing
    try:
        assert store.is_empty()
    finally:
        store.close()
