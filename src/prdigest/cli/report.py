"""``prdigest report`` / ``feed`` / ``publish``: reports and feeds from the database."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click

from prdigest.cli.options import (
    db_option,
    lang_option,
    open_store,
    parse_date,
    parse_languages,
    parse_pr_ref,
    write_output,
)
from prdigest.cli.plural import plural
from prdigest.cli.progress import progress
from prdigest.config import LLMConfig
from prdigest.errors import ConfigError, NarrationError, NotFound
from prdigest.render.format_names import FEED_FORMAT_NAMES, REPORT_FORMAT_NAMES
from prdigest.words import Lang, languages

if TYPE_CHECKING:
    from prdigest.models.narrative import Length


def _llm(no_llm: bool) -> LLMConfig | None:
    if no_llm:
        return None
    from prdigest.config import load_settings

    return load_settings().llm


@contextmanager
def _issues(store: Any, llm: LLMConfig | None) -> Iterator[Any]:
    """With an LLM: GitHub's issues for the linked context (asked once each, cached in the
    store); without one nothing is narrated by a model, so nothing is asked."""
    if llm is None:
        yield None
        return
    from prdigest.config import load_settings
    from prdigest.pipeline.linked_issues import github_issues

    with github_issues(store, load_settings().github) as issues:
        yield issues


_no_llm = click.option("--no-llm", is_flag=True, help="Use the extractive narrator even if an LLM is configured.")
_refresh = click.option(
    "--refresh", is_flag=True, help="Narrate again with the LLM, even when a narrative (or a fallback) is cached."
)
_out = click.option(
    "--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Write to FILE, not stdout."
)


@click.command("report")
@click.argument("ref", metavar="OWNER/NAME#N")
@click.option("--length", type=click.Choice(["full", "brief"]), default="full", show_default=True)
@lang_option()
@click.option("--format", "fmt", type=click.Choice(list(REPORT_FORMAT_NAMES)), default="md", show_default=True)
@_no_llm
@_refresh
@_out
@db_option
def report(
    ref: str, length: str, lang: Lang, fmt: str, no_llm: bool, refresh: bool, out: Path | None, db: str | None
) -> None:
    """Write the full or brief report of one pull request."""
    repository, number = parse_pr_ref(ref)
    llm = _llm(no_llm)
    if llm is None and not refresh:
        from prdigest.pipeline.quick import quick_report

        quick = quick_report(db, repository, number, lang, length, fmt)
        if quick is not None:
            write_output(quick, out)
            return
    from prdigest.pipeline.report import rendered_report

    with open_store(db, "read") as store, _issues(store, llm) as issues:
        text = rendered_report(
            store, repository, number, lang, cast("Length", length), fmt, llm, refresh=refresh, issues=issues
        )
    write_output(text, out)


@click.command("feed")
@click.argument("repository", metavar="OWNER/NAME")
@click.option("--since", default=None, help="Only PRs merged (or opened) on or after this date.")
@click.option("--until", default=None, help="Only PRs merged (or opened) before this date.")
@lang_option()
@click.option("--format", "fmt", type=click.Choice(list(FEED_FORMAT_NAMES)), default="md", show_default=True)
@click.option("--limit", type=click.IntRange(min=1), default=None, help="At most N items.")
@_no_llm
@_refresh
@_out
@db_option
def feed(
    repository: str,
    since: str | None,
    until: str | None,
    lang: Lang,
    fmt: str,
    limit: int | None,
    no_llm: bool,
    refresh: bool,
    out: Path | None,
    db: str | None,
) -> None:
    """Write a repository's reading feed, newest first."""
    from prdigest.pipeline.item_failures import failure_summary
    from prdigest.pipeline.report import failed_items, feed_for
    from prdigest.render.formats import feed_format

    _check_repository(repository)
    window = (parse_date(since, "--since"), parse_date(until, "--until"))
    llm = _llm(no_llm)
    with open_store(db, "read") as store, _issues(store, llm) as issues:
        _require_stored(store, repository)
        built = feed_for(
            store, repository, lang, llm, since=window[0], until=window[1], limit=limit, refresh=refresh, issues=issues
        )
    write_output(feed_format(fmt).render(built), out)
    failures = failed_items(built)
    if failures:
        raise NarrationError(failure_summary(failures, len(built.items), str(out) if out else "standard output"))


def _check_repository(repository: str) -> None:
    owner, sep, name = repository.partition("/")
    if not sep or not owner or not name or "/" in name:
        raise ConfigError(f"expected OWNER/NAME, got {repository!r}")


def _require_stored(store: Any, repository: str) -> None:
    """A repository with no stored PR at all is a typo or a missing sync, not an empty window:
    say so instead of writing an empty feed (or site) and exiting 0."""
    if not store.list_prs(repository=repository, limit=1):
        raise NotFound(f"no pull requests of {repository} in the database; run `prdigest sync` first")


@click.command("publish")
@click.argument("repository", metavar="OWNER/NAME")
@click.option("--out", "out", required=True, type=click.Path(file_okay=False, path_type=Path), help="Folder.")
@click.option("--lang", "langs", default=",".join(languages()), show_default=True, help="Languages, comma-separated.")
@click.option("--since", default=None, help="Only PRs merged (or opened) on or after this date.")
@click.option("--until", default=None, help="Only PRs merged (or opened) before this date.")
@_no_llm
@_refresh
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    help="Worker processes making the pages without an LLM (default: one per CPU; small runs stay in one process).",
)
@db_option
def publish(
    repository: str,
    out: Path,
    langs: str,
    since: str | None,
    until: str | None,
    no_llm: bool,
    refresh: bool,
    jobs: int | None,
    db: str | None,
) -> None:
    """Write every report (full and brief, each language, md + html + json) and the feed to a folder."""
    from prdigest.pipeline.publish import publish_site

    _check_repository(repository)
    chosen = parse_languages(langs)
    window: tuple[datetime | None, datetime | None] = (parse_date(since, "--since"), parse_date(until, "--until"))
    llm = _llm(no_llm)
    with open_store(db, "read") as store, _issues(store, llm) as issues, progress(f"publish {repository}") as bar:
        _require_stored(store, repository)
        written = publish_site(
            store,
            repository,
            out,
            chosen,
            llm,
            since=window[0],
            until=window[1],
            refresh=refresh,
            on_start=bar.set_total,
            on_done=lambda number: bar.advance(note=f"#{number}"),
            jobs=jobs,
            issues=issues,
        )
    # The result of the command, so stdout (progress and warnings are stderr's).
    click.echo(f"wrote {plural(written.reports, 'report')} and {plural(written.feeds, 'feed')} to {out}")
    if written.failures:
        from prdigest.pipeline.item_failures import failure_summary

        raise NarrationError(failure_summary(written.failures, written.total, str(out)))
