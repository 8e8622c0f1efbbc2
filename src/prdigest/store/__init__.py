"""Persistence: SQLite by default, any SQLAlchemy URL (PostgreSQL tested)."""

from prdigest.store.database import default_database_path, make_engine, resolve_database_url
from prdigest.store.store import PRSummary, Store, UpsertStats

__all__ = ["PRSummary", "Store", "UpsertStats", "default_database_path", "make_engine", "resolve_database_url"]
