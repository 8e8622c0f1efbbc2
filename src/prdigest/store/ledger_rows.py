"""A ledger row as a `LedgerEntry`, shared by `ledger_store` (SQLAlchemy) and the quick report
path of `prdigest.store.quick` (sqlite3), which select the same columns in the same order."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from prdigest.models.ledger import LedgerEntry


def ledger_entry(row: Sequence[Any]) -> LedgerEntry:
    """(full name, number, title, merged at, path, package, before, after, kinds, scope,
    condition, replaced by) → the entry; ``merged_at`` as SQLAlchemy or sqlite3 returns it."""
    merged_at = datetime.fromisoformat(row[3]) if isinstance(row[3], str) else row[3]
    return LedgerEntry(
        repository=row[0],
        number=int(row[1]),
        title=row[2],
        merged_at=merged_at,
        path=row[4],
        package=row[5],
        before=row[6],
        after=row[7],
        kinds=[k for k in str(row[8]).split(",") if k],
        scope=row[9],
        condition=row[10],
        replaced_by=row[11],
    )
