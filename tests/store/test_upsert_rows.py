"""SQLite bulk upserts (compiled once, plain tuples) store exactly what SQLAlchemy's path stores."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select

from prdigest.store import Store
from prdigest.store.schema import pull_requests, repositories
from prdigest.store.testing import engine_of
from prdigest.store.upsert import insert_rows


def _row(number: int, **extra: Any) -> dict[str, Any]:
    return {
        "repository_id": 1,
        "number": number,
        "title": f"PR {number}",
        "state": "merged",
        "merged_at": datetime(2026, 5, 1, 12, 30, 5, 17),
        "record": "{}",
        "record_hash": f"h{number}",
        "source": "git",
        **extra,
    }


def _stored(store: Store) -> list[tuple[Any, ...]]:
    with engine_of(store).connect() as connection:
        raw = connection.exec_driver_sql(
            "SELECT number, title, merged_at, additions, record_hash FROM pull_requests ORDER BY number"
        )
        return [tuple(row) for row in raw]


def _write(store: Store, rows: list[dict[str, Any]], *, one_by_one: bool) -> None:
    with engine_of(store).begin() as connection:
        insert_rows(connection, repositories, [{"full_name": "org/proj"}], keys=["full_name"])
        for chunk in [[row] for row in rows] if one_by_one else [rows]:
            insert_rows(connection, pull_requests, chunk, keys=["repository_id", "number"], update=["title"])


def test_many_rows_store_what_single_rows_store(tmp_path: Path) -> None:
    rows = [_row(1, additions=3), _row(2, additions=0), _row(3, additions=7, merged_at=None)]
    with Store.open(f"sqlite:///{tmp_path / 'one.db'}") as one, Store.open(f"sqlite:///{tmp_path / 'many.db'}") as many:
        _write(one, rows, one_by_one=True)
        _write(many, rows, one_by_one=False)
        assert _stored(many) == _stored(one)
        assert _stored(many)[0][2] == "2026-05-01 12:30:05.000017"  # SQLAlchemy's date text, not sqlite3's


def test_rows_that_rely_on_a_column_default_still_get_it(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'p.db'}") as store:
        _write(store, [_row(1), _row(2)], one_by_one=False)  # no "additions": its default 0
        _write(store, [_row(1, title="renamed"), _row(2, title="again")], one_by_one=False)  # the update
        with engine_of(store).connect() as connection:
            titles = connection.execute(select(pull_requests.c.title, pull_requests.c.additions)).all()
        assert sorted(tuple(t) for t in titles) == [("again", 0), ("renamed", 0)]
