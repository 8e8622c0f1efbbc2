"""Answers of the start-up-bound commands that need neither SQLAlchemy, pydantic nor the
analyzers: ``prdigest analyze`` when nothing is new, ``prdigest report`` of a cached report.

Each returns None when it cannot answer for sure, and the command then takes its normal
path, which would have come to the same answer (tests/pipeline/test_quick.py compares them).
"""

from __future__ import annotations

from prdigest.analyzers.versions import facts_key
from prdigest.store import quick


def nothing_to_analyze(db: str | None, repository: str | None) -> int | None:
    """The number of PRs (all, or ``repository``'s) when every one has current facts and a
    current search row, so ``prdigest analyze`` (without --all, --rules, --versions or
    --since) would analyze and index nothing; else None."""
    path = quick.sqlite_path(db)
    if path is None or not quick.writable(path):  # analyze refuses a read-only file: let it say so
        return None
    with quick.reading(path) as connection:
        if connection is None:
            return None
        keys = quick.analysis_keys(connection, repository)
        if any(stored != facts_key(record_hash) for record_hash, stored in keys):
            return None
        if not quick.search_current(connection, repository):
            return None
        return len(keys)
