"""Idempotent inserts: ``INSERT … ON CONFLICT`` on SQLite and PostgreSQL.

Two processes writing the same row (two syncs of one repository, two analyses of one PR)
then both succeed and the row holds the last write, instead of the second failing on a
unique key. Other databases get a plain INSERT (their writers must not overlap).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, Dialect, Table, insert, select

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
    if dialect == "sqlite" and len(rows) > 1 and _sqlite_insert_many(connection, table, rows, keys, update):
        return
    if dialect not in ("sqlite", "postgresql"):
        connection.execute(insert(table), list(rows))
        return
    connection.execute(_upsert_statement(table, dialect, keys, update), list(rows))


def _upsert_statement(table: Table, dialect: str, keys: Sequence[str], update: Sequence[str]) -> Any:
    """INSERT … ON CONFLICT (``keys``) DO UPDATE ``update`` (or DO NOTHING), SQLite or PostgreSQL."""
    statement: Any
    # Only the dialect in use is imported: PostgreSQL's package alone costs a SQLite sync ~70 ms.
    if dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        statement = sqlite_insert(table)
    else:
        from sqlalchemy.dialects.postgresql import insert as postgresql_insert

        statement = postgresql_insert(table)
    if update:
        return statement.on_conflict_do_update(
            index_elements=list(keys), set_={name: statement.excluded[name] for name in update}
        )
    return statement.on_conflict_do_nothing(index_elements=list(keys))


_Processor = Callable[[Any], Any] | None


def _sqlite_insert_many(
    connection: Connection, table: Table, rows: Sequence[dict[str, Any]], keys: Sequence[str], update: Sequence[str]
) -> bool:
    """The same statement (`_upsert_statement`), compiled once and run with plain tuples (SQLite).

    A sync writes thousands of rows (records, file texts): SQLAlchemy's per-row parameter
    handling cost more than SQLite's own work. Each value still goes through its column
    type's bind processor (dates as SQLAlchemy stores them). Returns False (nothing done)
    when the rows do not all name exactly the statement's columns."""
    names = tuple(rows[0])
    sql, order, processors = _sqlite_upsert(table, tuple(keys), tuple(update), names, connection.dialect)
    if set(order) != set(names):  # a column default to fill in: SQLAlchemy does it
        return False
    width = len(names)
    params: list[tuple[Any, ...]] = []
    for row in rows:
        if len(row) != width:
            return False
        try:
            values = [row[name] for name in order]
        except KeyError:
            return False
        for index, process in processors:
            values[index] = process(values[index])
        params.append(tuple(values))
    connection.exec_driver_sql(sql, params)
    return True


@lru_cache(maxsize=64)  # a handful of tables and column sets per process
def _sqlite_upsert(
    table: Table, keys: tuple[str, ...], update: tuple[str, ...], names: tuple[str, ...], dialect: Dialect
) -> tuple[str, tuple[str, ...], tuple[tuple[int, Callable[[Any], Any]], ...]]:
    compiled = _upsert_statement(table, "sqlite", keys, update).compile(dialect=dialect, column_keys=list(names))
    order = tuple(compiled.positiontup or ())
    processors = []
    for index, name in enumerate(order):
        process: _Processor = (
            table.c[name].type.dialect_impl(dialect).bind_processor(dialect) if name in table.c else None
        )
        if process is not None:
            processors.append((index, process))
    return str(compiled), order, tuple(processors)


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
