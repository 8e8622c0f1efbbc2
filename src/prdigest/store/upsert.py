"""Idempotent inserts: ``INSERT … ON CONFLICT`` on SQLite and PostgreSQL.

Two processes writing the same row (two syncs of one repository, two analyses of one PR)
then both succeed and the row holds the last write, instead of the second failing on a
unique key. Other databases get a plain INSERT (their writers must not overlap).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Table, insert, select

from prdigest.store.schema import pull_requests


def insert_rows(
    connection: Connection,
    table: Table,
    rows: Sequence[dict[str, Any]],
    *,
    keys: Sequence[str],
    update: Sequence[str] = (),
) -> None:
    """Insert ``rows``; a row whose ``keys`` exist already updates ``update`` (or is skipped)."""
    if not rows:
        return
    dialect = connection.dialect.name
    statement: Any
    # Only the dialect in use is imported: PostgreSQL's package alone costs a SQLite sync ~70 ms.
    if dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        statement = sqlite_insert(table)
    elif dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as postgresql_insert

        statement = postgresql_insert(table)
    else:
        connection.execute(insert(table), list(rows))
        return
    if update:
        statement = statement.on_conflict_do_update(
            index_elements=list(keys), set_={name: statement.excluded[name] for name in update}
        )
    else:
        statement = statement.on_conflict_do_nothing(index_elements=list(keys))
    connection.execute(statement, list(rows))


def lock_pull_requests(connection: Connection, ids: Sequence[int]) -> None:
    """Hold these PRs' rows until commit (PostgreSQL), lowest id first.

    Writers of what hangs off a PR (facts, labels, links, search rows, narratives) delete and
    re-insert; two of them on one PR would otherwise both insert (duplicate links, or a
    unique-key error). Locking in id order keeps two writers from waiting on each other in
    a circle. SQLite needs nothing: its write transactions already run one at a time.
    """
    if connection.dialect.name != "postgresql" or not ids:
        return
    connection.execute(
        select(pull_requests.c.id)
        .where(pull_requests.c.id.in_(sorted(set(ids))))
        .order_by(pull_requests.c.id)
        .with_for_update(key_share=True)
    )
