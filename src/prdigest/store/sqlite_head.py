"""Create a brand-new SQLite database directly at the latest schema, without running migrations.

A new file gets, in one transaction, exactly what running every migration leaves: the
schema objects (tables, FTS tables, indexes, triggers) and the rows the migrations insert
(the alembic version among them), recorded in ``sqlite_head.json`` from a migrated database.
This spares a first sync alembic's import and its migrations (about half a second).

The recording names the revision it was taken at; when that is not this code's latest
revision (a new migration without a new recording), the caller migrates as before. A test
keeps the recording equal to what the migrations create (``PRDIGEST_UPDATE_GOLDEN=1``
re-records it).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prdigest.store.revisions import HEAD_REVISION

if TYPE_CHECKING:
    from sqlalchemy import Connection

RECORDING = Path(__file__).with_name("sqlite_head.json")

# Creation order: every table before the indexes and triggers that refer to it.
_KIND_ORDER = {"table": 0, "index": 1, "view": 2, "trigger": 3}


def recorded() -> dict[str, Any] | None:
    """The recording, or None when it is not at this code's latest revision."""
    data: dict[str, Any] = json.loads(RECORDING.read_text(encoding="utf-8"))
    return data if data.get("revision") == HEAD_REVISION else None


def create(connection: Connection, recording: dict[str, Any]) -> None:
    """Run the recorded statements on an empty database (inside the caller's transaction)."""
    for sql, parameters in statements(recording):
        if parameters:
            connection.exec_driver_sql(sql, parameters)
        else:
            connection.exec_driver_sql(sql)


def statements(recording: dict[str, Any]) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """The recording as (SQL, parameters) to run in order (`create`; sqlite3 callers too)."""
    for sql in recording["schema"]:
        yield sql, ()
    for table, columns, rows in recording["rows"]:
        names = ", ".join(f'"{c}"' for c in columns)
        marks = ", ".join("?" for _ in columns)
        for row in rows:
            yield f'INSERT INTO "{table}" ({names}) VALUES ({marks})', tuple(row)


def record(connection: sqlite3.Connection, revision: str) -> dict[str, Any]:
    """What a (migrated) database holds, as ``create`` replays it."""
    kinds = {str(row[1]): str(row[2]) for row in connection.execute("PRAGMA table_list")}
    shadow = {name for name, kind in kinds.items() if kind == "shadow"}  # created by their FTS table
    objects = connection.execute(
        "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
    ).fetchall()
    schema = [
        str(sql)
        for kind, name, sql in sorted(objects, key=lambda o: _KIND_ORDER.get(str(o[0]), 9))
        if name not in shadow
    ]
    rows: list[list[Any]] = []
    for (name,) in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ):
        if kinds.get(name) in ("shadow", "virtual"):
            continue  # an FTS table fills itself (and holds no rows in a new database)
        columns = [str(c[1]) for c in connection.execute(f'PRAGMA table_info("{name}")')]
        data = [list(r) for r in connection.execute(f'SELECT * FROM "{name}" ORDER BY rowid')]
        if data:
            rows.append([str(name), columns, data])
    return {"revision": revision, "schema": schema, "rows": rows}
