"""The database's write generation: a value that changes on every committed write.

The web files whole cached responses under it (prdigest.web.page_cache) and drops them all
when it changes. Why not ``max(id)``/``count(*)`` of the written tables: `Store.upsert_prs`
UPDATEs changed PRs in place (same id, same count: a retitled PR would not show), and
`facts_store.save_facts_rows` deletes and re-inserts facts, labels and links, which on SQLite
reuses the same rowids when the PR was the newest one. The generation therefore comes from
the database engine itself:

- SQLite: ``PRAGMA data_version`` on one dedicated connection (it changes whenever another
  connection, of any process, commits) plus ``total_changes()`` (the writes of that same
  connection, which is every connection for an in-memory database).
- PostgreSQL: ``pg_current_snapshot()``: its xmax moves when any writing transaction starts,
  its in-progress list changes when one ends. It is cluster-wide, so writes to other
  databases also invalidate (harmless, just a miss). The LSN of the WAL is not used: a commit
  record can be written before the commit becomes visible, which could file a stale page under
  the final LSN.
- Other databases: no generation (`generation_reader` returns None).
"""

from __future__ import annotations

import contextlib
from collections.abc import Hashable

from sqlalchemy import Connection, Engine

from prdigest.store.store import Store

_GENERATION_SQL = {
    "sqlite": "SELECT (SELECT data_version FROM pragma_data_version()), total_changes()",
    "postgresql": "SELECT CAST(pg_current_snapshot() AS TEXT)",
}


class GenerationReader:
    """Reads the generation on one connection of its own, opened on the first read.

    Not thread-safe: callers serialize `read` and `close`.
    """

    def __init__(self, engine: Engine, sql: str) -> None:
        self._engine = engine
        self._sql = sql
        self._connection: Connection | None = None
        self._in_memory = engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:")

    def read(self) -> Hashable:
        if self._connection is None:
            # Kept for the reader's life: data_version only compares within one connection.
            self._connection = self._engine.connect()
        try:
            row = self._connection.exec_driver_sql(self._sql).one()
        except Exception:
            self.close()
            raise
        if not self._in_memory:
            # End the read transaction at once: an open one would pin a snapshot (PostgreSQL;
            # SQLite files, whose reads begin a transaction too, would also keep the WAL from
            # being checkpointed). An in-memory database's one connection is shared with the
            # writers and its reads begin none: a rollback there could undo someone else's work.
            self._connection.rollback()
        return tuple(row)

    def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):  # possibly broken already: nothing else to do
                connection.close()


def generation_reader(store: Store) -> GenerationReader | None:
    """A reader of the store's write generation, or None when this database gives none."""
    sql = _GENERATION_SQL.get(store._engine.dialect.name)
    return None if sql is None else GenerationReader(store._engine, sql)
