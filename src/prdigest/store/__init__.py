"""Persistence: SQLite by default, any SQLAlchemy URL (PostgreSQL tested).

The names below are loaded on first use (PEP 562), so that `prdigest.store.quick`, the
SQLite-only reads of the start-up-bound commands, can be imported without SQLAlchemy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'prdigest.store' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
