"""``prdigest report`` / ``feed`` / ``publish``: reports and feeds from the database."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click

from prdigest.cli.options import db_option, open_store, parse_date, parse_pr_ref
from prdigest.cli.plural import plural
from prdigest.config import LLMConfig
from prdigest.errors import ConfigError, NotFound
from prdigest.models.narrative import Lang, Length
from prdigest.text import printable

if TYPE_CHECKING:
    from rich.console import Console

REPORT_FORMATS = ("md", "json", "html")
FEED_FORMATS = ("md", "json", "html", "atom")


def _llm(no_llm: bool) -> LLMConfig | None:
    if no_llm:
        return None
    from prdigest.config import load_settings

    return load_settings().llm


def _write(text: str, out: Path | None) -> None:
    # No document format (Markdown, HTML, JSON, Atom) has a use for raw control characters,
    # and a terminal (or a later `cat`) would act on the ones a PR's text smuggled in.
    text = printable(text)
    if out is None:
        click.echo(text, nl=False)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")


def render_report(report: Any, fmt: str) -> str:
    if fmt == "md":
        from prdigest.render.markdown import render_report_markdown

        return render_report_markdown(report)
    if fmt == "json":
        from prdigest.render.json_schema import render_report_json

        return render_report_json(report)
    from prdigest.render.html import render_report_html

    return render_report_html(report)


def render_feed(feed: Any, fmt: str) -> str:
    if fmt == "md":
        from prdigest.render.markdown import render_feed_markdown

        return render_feed_markdown(feed)
    if fmt == "json":
        from prdigest.render.json_schema import render_feed_json

        return render_feed_json(feed)
    if fmt == "atom":
        from prdigest.render.atom import render_feed_atom

        return render_feed_atom(feed)
    from prdigest.render.html import render_feed_html

    return render_feed_html(feed)


_no_llm = click.option("--no-llm", is_flag=True, help="Use the extractive narrator even if an LLM is configured.")
_out = click.option(
    "--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Write to FILE, not stdout."
)


@click.command("report")
@click.argument("ref", metavar="OWNER/NAME#N")
@click.option("--length", type=click.Choice(["full", "brief"]), default="full", show_default=True)
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True)
@click.option("--format", "fmt", type=click.Choice(REPORT_FORMATS), default="md", show_default=True)
@_no_llm
@_out
@db_option
def report(ref: str, length: str, lang: str, fmt: str, no_llm: bool, out: Path | None, db: str | None) -> None:
    """Write the full or brief report of one pull request."""
    from prdigest.narrate.pipeline import report_for

    repository, number = parse_pr_ref(ref)
    llm = _llm(no_llm)
    with open_store(db) as store:
        built = report_for(store, repository, number, cast(Lang, lang), cast(Length, length), llm)
    _write(render_report(built, fmt), out)


@click.command("feed")
@click.argument("repository", metavar="OWNER/NAME")
@click.option("--since", default=None, help="Only PRs merged (or opened) on or after this date.")
@click.option("--until", default=None, help="Only PRs merged (or opened) before this date.")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True)
@click.option("--format", "fmt", type=click.Choice(FEED_FORMATS), default="md", show_default=True)
@click.option("--limit", type=click.IntRange(min=1), default=None, help="At most N items.")
@_no_llm
@_out
@db_option
def feed(
    repository: str,
    since: str | None,
    until: str | None,
    lang: str,
    fmt: str,
    limit: int | None,
    no_llm: bool,
    out: Path | None,
    db: str | None,
) -> None:
    """Write a repository's reading feed, newest first."""
    from prdigest.narrate.pipeline import feed_for

    _check_repository(repository)
    window = (parse_date(since, "--since"), parse_date(until, "--until"))
    llm = _llm(no_llm)
    with open_store(db) as store:
        _require_stored(store, repository)
        built = feed_for(store, repository, cast(Lang, lang), llm, since=window[0], until=window[1], limit=limit)
    _write(render_feed(built, fmt), out)


def _check_repository(repository: str) -> None:
    owner, sep, name = repository.partition("/")
    if not sep or not owner or not name or "/" in name:
        raise ConfigError(f"expected OWNER/NAME, got {repository!r}")


def _require_stored(store: Any, repository: str) -> None:
    """A repository with no stored PR at all is a typo or a missing sync, not an empty window:
    say so instead of writing an empty feed (or site) and exiting 0."""
    if not store.list_prs(repository=repository, limit=1):
        raise NotFound(f"no pull requests of {repository} in the database; run `prdigest sync` first")


def _languages(value: str) -> list[Lang]:
    langs = [part.strip() for part in value.split(",") if part.strip()]
    unknown = [lang for lang in langs if lang not in ("zh", "en")]
    if unknown or not langs:
        raise ConfigError(f"--lang expects zh, en or zh,en; got {value!r}")
    return [cast(Lang, lang) for lang in dict.fromkeys(langs)]


@click.command("publish")
@click.argument("repository", metavar="OWNER/NAME")
@click.option("--out", "out", required=True, type=click.Path(file_okay=False, path_type=Path), help="Folder.")
@click.option("--lang", "langs", default="zh,en", show_default=True, help="Languages, comma-separated.")
@click.option("--since", default=None, help="Only PRs merged (or opened) on or after this date.")
@click.option("--until", default=None, help="Only PRs merged (or opened) before this date.")
@_no_llm
@db_option
def publish(
    repository: str, out: Path, langs: str, since: str | None, until: str | None, no_llm: bool, db: str | None
) -> None:
    """Write every report (full and brief, each language, md + html + json) and the feed to a folder."""
    from prdigest.render.site import publish_site

    _check_repository(repository)
    languages = _languages(langs)
    window: tuple[datetime | None, datetime | None] = (parse_date(since, "--since"), parse_date(until, "--until"))
    llm = _llm(no_llm)
    with open_store(db) as store:
        _require_stored(store, repository)
        written = publish_site(
            store, repository, out, languages, llm, since=window[0], until=window[1], console=_progress_console()
        )
    # The result of the command, so stdout (progress and warnings are stderr's).
    click.echo(f"wrote {plural(written.reports, 'report')} and {plural(written.feeds, 'feed')} to {out}")


def _progress_console() -> Console:
    """stderr, silent when it is not a terminal: a finished bar there is only a blank line."""
    from rich.console import Console

    return Console(stderr=True, quiet=not sys.stderr.isatty())
