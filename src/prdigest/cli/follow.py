"""``prdigest follow add|list|remove|run``: repositories followed on a schedule.

``follow run`` does one pass (sync → analyze → narrate → publish what changed). With no broker
configured it works in this process; with one (``PRDIGEST_BROKER_URL`` / ``[queue] broker_url``)
it enqueues the pass for the workers, and ``--wait`` waits for it and prints what happened.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import click

from prdigest.cli.options import db_option, open_store, parse_languages
from prdigest.cli.plural import plural
from prdigest.errors import ConfigError, QueueError

_REPOSITORY = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_every(value: str) -> int:
    """``15m``, ``1h``, ``90s``, ``2d`` or plain seconds → seconds (at least 60)."""
    match = re.fullmatch(r"\s*(\d+)\s*([smhd]?)\s*", value)
    if match is None:
        raise ConfigError(f"--every expects a duration like 15m, 1h or 2d, got {value!r}")
    seconds = int(match.group(1)) * _UNITS[match.group(2) or "s"]
    if seconds < 60:
        raise ConfigError(f"--every must be at least a minute, got {value!r}")
    return seconds


def format_every(seconds: int) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


@click.group("follow")
def follow() -> None:
    """Follow repositories: sync, analyze, narrate and publish them on a schedule."""


@follow.command("add")
@click.argument("repository")
@click.option("--git", "git_path", type=click.Path(path_type=Path), help="Sync from the git clone at PATH.")
@click.option("--github", "use_github", is_flag=True, help="Sync from the GitHub API (the default).")
@click.option("--every", default="15m", show_default=True, help="How often the scheduler syncs it (15m, 1h, 1d).")
@click.option("--lang", "languages", default="zh,en", show_default=True, help="Languages to narrate, comma-separated.")
@click.option(
    "--publish", "publish_dir", type=click.Path(file_okay=False, path_type=Path), help="Write its site to DIR."
)
@db_option
def follow_add(
    repository: str,
    git_path: Path | None,
    use_github: bool,
    every: str,
    languages: str,
    publish_dir: Path | None,
    db: str | None,
) -> None:
    """Follow REPOSITORY (OWNER/NAME); following it again changes its settings."""
    from prdigest.store.follow_store import Follow, add_follow

    if not _REPOSITORY.match(repository):
        raise ConfigError(f"expected OWNER/NAME, got {repository!r}")
    if git_path is not None and use_github:
        raise ConfigError("choose one source: --git PATH or --github")
    location = None
    if git_path is not None:
        from prdigest.sources.git.runner import check_repository

        check_repository(git_path)
        location = str(git_path.resolve())
    entry = Follow(
        repository=repository,
        source="git" if git_path is not None else "github",
        location=location,
        every_seconds=parse_every(every),
        languages=tuple(parse_languages(languages)),
        publish_dir=str(publish_dir.resolve()) if publish_dir is not None else None,
    )
    store = open_store(db, "create")
    try:
        add_follow(store, entry)
    finally:
        store.close()
    where = f"the clone at {location}" if location else "GitHub"
    click.echo(f"following {repository} from {where}, every {format_every(entry.every_seconds)}")


@follow.command("list")
@db_option
def follow_list(db: str | None) -> None:
    """List the followed repositories and how their last pass went."""
    from prdigest.store.follow_store import list_follows

    store = open_store(db, "read")
    try:
        entries = list_follows(store)
    finally:
        store.close()
    if not entries:
        click.echo("no repository is followed (add one with `prdigest follow add OWNER/NAME`)")
        return
    for entry in entries:
        source = f"git {entry.location}" if entry.source == "git" else "github"
        last = "never run" if entry.last_run_at is None else f"last {entry.last_run_at:%Y-%m-%d %H:%M} UTC"
        status = f" {entry.last_status}" if entry.last_status else ""
        click.echo(f"{entry.repository}\tevery {format_every(entry.every_seconds)}\t{source}\t{last}{status}")
        if entry.last_error:
            click.echo(f"  error: {entry.last_error}")


@follow.command("remove")
@click.argument("repository")
@db_option
def follow_remove(repository: str, db: str | None) -> None:
    """Stop following REPOSITORY (what was synced stays in the database)."""
    from prdigest.store.follow_store import remove_follow

    store = open_store(db, "write")
    try:
        remove_follow(store, repository)
    finally:
        store.close()
    click.echo(f"no longer following {repository}")


@follow.command("run")
@click.option("--repo", "only", multiple=True, metavar="OWNER/NAME", help="Only these repositories (repeatable).")
@click.option("--wait", is_flag=True, help="With a broker: wait until the workers are done and print what happened.")
@click.option(
    "--timeout", type=click.FloatRange(min=1), default=3600.0, show_default=True, help="Seconds --wait waits."
)
@click.option("--in-process", "here", is_flag=True, help="Run the pass here even when a broker is configured.")
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="In-process: analysis processes.")
@click.option(
    "--send-digests",
    is_flag=True,
    help="In-process: after the pass, each watch on a repository that passed sends its digest ([digest] settings).",
)
@db_option
def follow_run(
    only: tuple[str, ...], wait: bool, timeout: float, here: bool, jobs: int | None, send_digests: bool, db: str | None
) -> None:
    """One pass over every followed repository: sync, analyze, narrate, publish what changed.

    With --send-digests, the watches of each repository that passed then send what they have
    not delivered yet (`prdigest digest NAME --send`); a failed delivery is told, keeps its
    PRs unread, and makes the command exit 1."""
    from prdigest.config import load_settings
    from prdigest.store.follow_store import list_follows

    settings = load_settings()
    store = open_store(db, "create")
    try:
        entries = list_follows(store)
        if only:
            unknown = sorted(set(only) - {entry.repository for entry in entries})
            if unknown:
                raise ConfigError(f"{unknown[0]} is not followed (see `prdigest follow list`)")
            entries = [entry for entry in entries if entry.repository in only]
        if not entries:
            click.echo("no repository is followed (add one with `prdigest follow add OWNER/NAME`)")
            return
        if send_digests and settings.queue is not None and not here:
            raise ConfigError("--send-digests runs in this process: add --in-process (the workers do not send digests)")
        if settings.queue is None or here:
            _run_here(store, entries, settings, jobs, send_digests)
            return
        url = store.url
    finally:
        store.close()
    _run_on_workers(settings, url, [entry.repository for entry in entries], wait, timeout)


def _run_here(store: Any, entries: list[Any], settings: Any, jobs: int | None, send_digests: bool = False) -> None:
    from prdigest.pipeline.follow import PassResult, run_pass_in_process

    if send_digests:
        from prdigest.pipeline.digest_send import check_channels

        check_channels(settings.digest)  # before the pass, not after minutes of it

    def show(result: PassResult) -> None:
        click.echo(_result_line(result.repository, result.status, _counts(result)))
        for message in result.failed:
            click.echo(f"  error: {message}", err=True)

    results = run_pass_in_process(store, entries, settings, jobs=jobs, on_result=show)
    failed = any(result.status == "failed" for result in results)
    if send_digests:
        passed = [result.repository for result in results if result.status != "failed"]
        failed = not _send_digests(store, passed, settings) or failed
    if failed:
        raise SystemExit(1)


def _send_digests(store: Any, repositories: list[str], settings: Any) -> bool:
    """Send each watch's digest; False when one failed (each failure told on stderr)."""
    from prdigest.pipeline.digest_send import send_watch_digests

    delivered = True
    for outcome in send_watch_digests(store, repositories, settings.digest, settings.llm):
        if outcome.error is not None:
            delivered = False
            for line in outcome.error.splitlines():
                click.echo(f"  error: {line}", err=True)
        elif outcome.sent is not None and outcome.sent.channels:
            count = plural(len(outcome.sent.digest.items), "pull request")
            click.echo(f"digest {outcome.watch}: sent {count} by {' and '.join(outcome.sent.channels)}")
        else:
            click.echo(f"digest {outcome.watch}: nothing new, nothing sent")
    return delivered


def _counts(result: Any) -> dict[str, int]:
    return {
        "synced": result.synced,
        "analyzed": result.analyzed,
        "narrated": result.narrated,
        "published": result.published,
        "failed": len(result.failed),
    }


def _result_line(repository: str, status: str, counts: dict[str, int]) -> str:
    return (
        f"{repository}: {status}; {plural(counts['synced'], 'PR')} new or updated, {counts['analyzed']} analyzed, "
        f"{plural(counts['narrated'], 'narrative')} written, {plural(counts['published'], 'report file')} published"
        + (f", {counts['failed']} failed" if counts["failed"] else "")
    )


def _run_on_workers(settings: Any, url: str, repositories: list[str], wait: bool, timeout: float) -> None:
    try:
        from prdigest.workers.app import Runtime, make_app
        from prdigest.workers.passes import Passes
        from prdigest.workers.tasks import start_pass
    except ImportError as exc:
        raise QueueError(f"a broker is configured but Celery is missing ({exc.name}); install prdigest[queue]") from exc
    from prdigest.workers.connection import ping

    runtime = Runtime(settings, url)
    ping(runtime.redis())
    app = make_app(runtime)
    pass_id = start_pass(app, runtime, repositories)
    click.echo(f"queued pass {pass_id} over {plural(len(repositories), 'repository', 'repositories')}")
    if not wait:
        return
    passes = Passes(runtime.redis())
    deadline = time.monotonic() + timeout
    while True:
        progress = passes.progress(pass_id)
        if progress is not None and progress.done:
            break
        if time.monotonic() > deadline:
            raise QueueError(f"pass {pass_id} is not done after {timeout:.0f} s; see `prdigest queue status`")
        time.sleep(0.5)
    failed = False
    for repo in progress.repositories:
        click.echo(_result_line(repo.repository, repo.status, repo.counts))
        if repo.error:
            click.echo(f"  error: {repo.error}", err=True)
        failed = failed or repo.status == "failed"
    if failed:
        raise SystemExit(1)
