"""Answers of the start-up-bound commands that need neither SQLAlchemy, pydantic nor the
analyzers: ``prdigest analyze`` when nothing is new, ``prdigest report`` of a cached report.

Each returns None when it cannot answer for sure, and the command then takes its normal
path, which would have come to the same answer (tests/pipeline/test_quick.py compares them).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

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


def code_fingerprint() -> str:
    """A digest of this prdigest's files (code, words, templates: name, size, modification
    time) and of the Python running it: a cached report made by other code is never shown."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(sys.version.encode())
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".pyc", ".pyo")):
                continue
            info = os.stat(os.path.join(folder, name))
            digest.update(
                f"{os.path.relpath(os.path.join(folder, name), root)}\0{info.st_size}\0{info.st_mtime_ns}\n".encode()
            )
    return digest.hexdigest()[:32]


def cached_report(db: str | None, repository: str, number: int, lang: str, length: str, fmt: str) -> str | None:
    """The report ``prdigest report`` would write (offline narrator, no --refresh), when this
    code rendered it before and nothing was written to the database since; else None."""
    path = quick.sqlite_path(db)
    if path is None:
        return None
    with quick.reading(path) as connection:
        if connection is None:
            return None
        return quick.cached_report(connection, repository, number, lang, length, fmt, code_fingerprint())
