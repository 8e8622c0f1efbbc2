"""``prdigest sync github OWNER/NAME``: incremental fetch of PRs from the GitHub API."""

from __future__ import annotations

import re
from pathlib import Path

import click
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from prdigest.cli.options import db_option, open_store, parse_date
from prdigest.cli.plural import plural
from prdigest.errors import ConfigError, PrdigestError
from prdigest.pipeline.sync import SyncStats, sync_source
from prdigest.sources.github.client import GitHubClient, RequestStats
from prdigest.sources.github.config import resolve_api_url, resolve_credentials
from prdigest.sources.github.source import STATE_FILTERS, FetchCounts, GitHubSource, SyncOptions
from prdigest.store.http_cache import HttpCache

_REPOSITORY = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
UNAUTHENTICATED_NOTICE = (
    "prdigest: no GitHub token (GITHUB_TOKEN, GH_TOKEN or github.token in the config file); "
    "using unauthenticated REST access, limited to 60 requests per hour"
)


@click.command("github")
@click.argument("repository")
@click.option("--since", default=None, metavar="DATE", help="Only PRs updated at or after DATE.")
@click.option("--state", "state_filter", type=click.Choice(STATE_FILTERS), default="merged", show_default=True)
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Fetch at most N PRs in this run.")
@click.option(
    "--save-raw",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Also write each fetched PR as a JSON bundle in DIR (replay with `prdigest import`).",
)
@click.option(
    "--max-wait",
    type=click.FloatRange(min=0),
    default=3600.0,
    show_default=True,
    help="Give up (keeping what was synced) when rate-limit and retry waits would exceed SECONDS.",
)
@click.option("--api-url", default=None, help="API base URL (default: $PRDIGEST_GITHUB_API_URL or api.github.com).")
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Config file with github.token (default: ~/.config/prdigest/config.toml).",
)
@click.option("--no-contents", is_flag=True, help="Skip fetching whole key source files at base and head.")
@click.option("--page-size", type=click.IntRange(1, 100), default=25, show_default=True, help="PRs per GraphQL page.")
@click.option(
    "--timeout", type=click.FloatRange(min=0.01), default=30.0, show_default=True, help="Seconds per request."
)
@db_option
def sync_github(
    repository: str,
    since: str | None,
    state_filter: str,
    limit: int | None,
    save_raw: Path | None,
    max_wait: float,
    api_url: str | None,
    config_path: Path | None,
    no_contents: bool,
    page_size: int,
    timeout: float,
    db: str | None,
) -> None:
    """Fetch REPOSITORY's PRs (OWNER/NAME) with reviews, threads, comments, commits and files."""
    if not _REPOSITORY.match(repository):
        raise ConfigError(f"expected OWNER/NAME, got {repository!r}")
    options = SyncOptions(
        repository=repository,
        state=state_filter,
        since=parse_date(since),
        limit=limit,
        save_raw=save_raw,
        contents=not no_contents,
        page_size=page_size,
    )
    credentials = resolve_credentials(config_path)
    base_url = resolve_api_url(api_url)
    if not credentials.authenticated:
        click.echo(UNAUTHENTICATED_NOTICE, err=True)
    console = Console(stderr=True)
    stats = SyncStats()
    store = open_store(db, "create")
    try:
        with (
            GitHubClient(base_url, credentials, cache=HttpCache(store), max_wait=max_wait, timeout=timeout) as client,
            Progress(
                SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=console, transient=True
            ) as progress,
        ):
            task = progress.add_task(f"{repository}: listing pull requests", total=None)

            def on_event(kind: str, number: int) -> None:
                verb = "fetched" if kind == "fetched" else "already current"
                fetched = source.counts.fetched
                progress.update(task, description=f"{repository}: #{number} {verb} ({fetched} fetched)")

            def on_wait(seconds: float, reason: str) -> None:
                progress.update(task, description=f"{repository}: waiting {seconds:.0f} s ({reason})")

            client.on_wait = on_wait
            source = GitHubSource(client, options, on_event)
            try:
                sync_source(store, source, stats=stats)
            except PrdigestError:
                click.echo(_summary(repository, source.counts, stats, client.stats, partial=True), err=True)
                raise
            click.echo(_summary(repository, source.counts, stats, client.stats, partial=False))
    finally:
        store.close()


def _summary(repository: str, counts: FetchCounts, written: SyncStats, stats: RequestStats, *, partial: bool) -> str:
    kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(stats.by_kind.items())) or "none"
    head = "stopped early; kept" if partial else "synced"
    mark = "" if partial or not counts.high_water else f"; high-water {counts.high_water}"
    if not partial and not counts.complete:
        mark = "; limit reached, high-water unchanged"
    return (
        f"{repository}: {head} {plural(counts.fetched, 'PR')} ({written.inserted} new, {written.updated} updated, "
        f"{written.unchanged} unchanged), {counts.current} already current; "
        f"{plural(stats.requests, 'request')} ({kinds}), {stats.not_modified} not modified, "
        f"waited {stats.waited_seconds:.0f} s{mark}"
    )
