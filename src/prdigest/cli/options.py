"""Options and helpers shared by several commands."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

import click

from prdigest.errors import ConfigError

F = TypeVar("F", bound=Callable[..., Any])


def db_option(func: F) -> F:
    """``--db PATH|URL``: the database (default: PRDIGEST_DB or the user data directory)."""
    return click.option(
        "--db",
        "db",
        metavar="PATH|URL",
        default=None,
        help="Database file or SQLAlchemy URL (default: $PRDIGEST_DB, else prdigest.db in the user data dir).",
    )(func)


def parse_date(value: str | None, option: str = "--since") -> datetime | None:
    """ISO date or datetime; naive values are taken as UTC."""
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError as exc:
        raise ConfigError(f"{option} expects a date like 2026-05-01 or 2026-05-01T12:00, got {value!r}") from exc
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def parse_pr_ref(value: str) -> tuple[str, int]:
    """``OWNER/NAME#N`` → (``OWNER/NAME``, N)."""
    repo, sep, number = value.rpartition("#")
    if not sep or "/" not in repo or not number.isdigit() or int(number) < 1:
        raise ConfigError(f"expected OWNER/NAME#NUMBER, got {value!r}")
    return repo, int(number)


def open_store(db: str | None) -> Any:
    from prdigest.store import Store, resolve_database_url

    return Store.open(resolve_database_url(db))
