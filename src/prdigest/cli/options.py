"""Options and helpers shared by several commands."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

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


def write_output(text: str, out: Path | None) -> None:
    """A document to ``out``, or to stdout when None."""
    from prdigest.text import printable

    # No document format (Markdown, HTML, JSON, Atom, e-mail) has a use for raw control
    # characters, and a terminal (or a later `cat`) would act on the ones a PR's text smuggled in.
    text = printable(text)
    if out is None:
        click.echo(text, nl=False)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")


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


# What a command does with the database: "create" it if missing and write records (sync,
# import), "write" an existing one (analyze), or "read" an existing one, read-only if it may
# not write there (every other command; what they cache is then computed, not stored).
Access = Literal["create", "write", "read"]


def open_store(db: str | None, access: Access) -> Any:
    from prdigest.store import Store, resolve_database_url

    return Store.open(resolve_database_url(db), create=access == "create", read_only_ok=access == "read")


@contextmanager
def creating_store(db: str | None) -> Iterator[Any]:
    """The store a sync or an import writes into, created when missing.

    When this run created the SQLite file and nothing was stored in the end (no pull request
    found, or a failure before the first one), the file is removed again: a failed first
    sync leaves no empty database behind.
    """
    from prdigest.store import Store, resolve_database_url
    from prdigest.store.database import sqlite_file

    url = resolve_database_url(db)
    path = sqlite_file(url)
    new = path is not None and not path.exists()
    store = Store.open(url, create=True)
    try:
        yield store
    finally:
        empty = False
        if new:
            with suppress(Exception):  # cannot tell (the database failed): keep the file
                empty = store.is_empty()
        store.close()
        if empty and path is not None:
            remove_database_files(path)


@contextmanager
def creating_new_sqlite(path: Path) -> Iterator[Any]:
    """Like `creating_store` for a SQLite file known not to exist: a `NewSqliteFile` (written
    without SQLAlchemy), or the store when the file cannot be created that way."""
    from prdigest.store.new_sqlite import NewSqliteFile

    new = NewSqliteFile.create(path)
    if new is None:
        with creating_store(str(path)) as store:
            yield store
        return
    try:
        yield new
    finally:
        empty = False
        with suppress(Exception):  # cannot tell (the database failed): keep the file
            empty = new.is_empty()
        new.close()
        if empty:
            remove_database_files(path)


def remove_database_files(path: Path) -> None:
    """Remove a SQLite file and its companions (a failed first sync leaves no empty database)."""
    for name in (str(path), f"{path}-wal", f"{path}-shm", f"{path}-journal"):
        with suppress(FileNotFoundError):
            os.unlink(name)
