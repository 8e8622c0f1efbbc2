"""Persistence: SQLite by default, any SQLAlchemy URL (PostgreSQL tested).

The names below are loaded on first use (PEP 562), so that `prdigest.store.quick`, the
SQLite-only reads of the start-up-bound commands, can be imported without SQLAlchemy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prdigest.lazy_exports import lazy_getattr

if TYPE_CHECKING:
    from prdigest.store.database import make_engine, resolve_database_url
    from prdigest.store.quick import default_database_path
    from prdigest.store.record_batches import UpsertStats
    from prdigest.store.store import PRSummary, Store

__all__ = ["PRSummary", "Store", "UpsertStats", "default_database_path", "make_engine", "resolve_database_url"]

_WHERE = {
    "PRSummary": "prdigest.store.store",
    "Store": "prdigest.store.store",
    "UpsertStats": "prdigest.store.record_batches",
    "default_database_path": "prdigest.store.quick",
    "make_engine": "prdigest.store.database",
    "resolve_database_url": "prdigest.store.database",
}


__getattr__ = lazy_getattr(__name__, _WHERE)
