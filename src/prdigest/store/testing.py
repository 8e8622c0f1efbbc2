"""For tests only: the store's engine, where a test must check the SQL itself.

The engine is private to `prdigest.store`; code outside it reads and writes through the
store's functions and methods. A few tests check what no public method shows (query plans,
migrations up and down, the per-connection settings, a schema revision from the future):
those, and only those, take the engine from here.
"""

from __future__ import annotations

from sqlalchemy import Engine

from prdigest.store.store import Store


def engine_of(store: Store) -> Engine:
    """The SQLAlchemy engine behind ``store`` (tests only: no application code calls this)."""
    return store._engine
