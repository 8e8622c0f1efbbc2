"""Database failures as one-line `StoreError` messages.

A driver's exception, printed by SQLAlchemy, carries the SQL and its parameters, which
hold record text (titles, bodies, diffs). The messages here keep only the driver's first
line (no statement, no parameters, no PostgreSQL DETAIL with key values) and say what to do.
"""

from __future__ import annotations

import sqlite3

from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from prdigest.errors import StoreError

# What the CLI catches besides prdigest's own errors: a database failure anywhere below it.
DATABASE_ERRORS: tuple[type[BaseException], ...] = (SQLAlchemyError, sqlite3.Error)

_MISSING_TABLE = "the database lacks a table prdigest needs (damaged, or not a prdigest database)"
# Substrings of driver messages (SQLite and PostgreSQL) and what to tell the user.
_HINTS: tuple[tuple[str, str], ...] = (
    ("database or disk is full", "the disk holding the database is full; free some space and run the command again"),
    ("no space left on device", "the disk holding the database is full; free some space and run the command again"),
    ("could not extend file", "the disk holding the database is full; free some space and run the command again"),
    ("attempt to write a readonly database", "the database is read-only: this command needs to write to it"),
    ("readonly database", "the database is read-only: this command needs to write to it"),
    ("file is not a database", "the file is not a SQLite database"),
    ("no such table", _MISSING_TABLE),
    ("database is locked", "another process kept the database locked for too long; run the command again"),
    ("disk i/o error", "the disk failed while reading or writing the database"),
    ("unable to open database file", "the database file cannot be opened (missing folder or no permission)"),
)


def driver_message(exc: BaseException) -> str:
    """The first line of the driver's own message (never the SQL or its parameters)."""
    orig: BaseException | None = exc.orig if isinstance(exc, DBAPIError) else None
    source = orig if orig is not None else exc
    if isinstance(exc, SQLAlchemyError) and orig is None:
        return type(exc).__name__  # its text may quote a statement
    lines = str(source).strip().splitlines()
    return lines[0].strip() if lines else type(source).__name__


def _hint(lowered: str) -> str | None:
    if lowered.startswith('relation "') and lowered.endswith("does not exist"):
        return _MISSING_TABLE
    return next((text for key, text in _HINTS if text and key in lowered), None)


def as_store_error(exc: BaseException, where: str | None = None) -> StoreError:
    """``exc`` (a database failure) as a one-line `StoreError`; ``where`` names the database."""
    message = driver_message(exc)
    lowered = message.lower()
    hint = _hint(lowered)
    if hint == "the file is not a SQLite database" and where is not None:
        return StoreError(f"{where} is not a SQLite database")
    prefix = f"database error on {where}" if where is not None else "database error"
    return StoreError(f"{prefix}: {hint} ({message})" if hint else f"{prefix}: {message}")
