"""Options and helpers shared by several commands."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

import click

from prdigest.errors import ConfigError
from prdigest.words import CATALOG, DEFAULT_LANG, Lang, languages

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


def lang_option(help: str | None = None) -> Callable[[F], F]:
    """``--lang``: one of the languages prdigest has words for (default: the default language)."""

    def as_lang(ctx: click.Context, param: click.Parameter, value: str) -> Lang:
        return CATALOG.lang(value)

    return click.option(
        "--lang",
        type=click.Choice(languages()),
        default=DEFAULT_LANG,
        show_default=True,
        callback=as_lang,
        help=help,
    )


def parse_languages(value: str, option: str = "--lang") -> list[Lang]:
    """A comma-separated list of languages, each once, in the order given."""
    codes = [part.strip() for part in value.split(",") if part.strip()]
    known = languages()
    if not codes or any(code not in known for code in codes):
        raise ConfigError(f"{option} expects one or more of {', '.join(known)}, comma-separated; got {value!r}")
    return [CATALOG.lang(code) for code in dict.fromkeys(codes)]


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
