"""``prdigest sync git PATH``: read merged (and fetched open) pull requests from a clone."""

from __future__ import annotations

import os
import sys
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

import click

from prdigest.cli.options import creating_new_sqlite, creating_store, db_option, parse_date
from prdigest.cli.plural import plural


@click.command("git")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--repo", "repository", metavar="OWNER/NAME", help="Repository name (default: from the origin remote).")
@click.option("--branch", metavar="REF", help="Branch to read (default: origin/HEAD, else the current branch).")
@click.option("--since", metavar="DATE", help="Only PRs merged on or after DATE (e.g. 2026-05-01).")
@click.option("--limit", type=click.IntRange(min=1), metavar="N", help="Only the N newest PRs.")
@click.option(
    "--contents/--no-contents",
    "with_contents",
    default=True,
    show_default=True,
    help="Read full before/after texts of changed source files (≤ 256 KB) for symbol analysis.",
)
@click.option("--full", is_flag=True, help="Re-read the whole history even if an earlier sync covered it.")
@db_option
def sync_git(
    path: Path,
    repository: str | None,
    branch: str | None,
    since: str | None,
    limit: int | None,
    with_contents: bool,
    full: bool,
    db: str | None,
) -> None:
    """Read merged pull requests from the git clone at PATH into the database.

    Recognizes, on the default branch's first-parent chain, squash commits whose subject
    ends in "(#N)" and merge commits "Merge pull request #N from ...", plus open PRs from
    refs/pull/N/head when the clone fetched them. Re-running reads only new commits.
    """
    # Where the sync starts, and whether anything is new, without the record models: git
    # starts (or the answer comes) before they load.
    from prdigest.sources.git.clone import GitClone, GitSyncOptions

    since_at = parse_date(since)
    options = GitSyncOptions(
        repository=repository, branch=branch, since=since_at, limit=limit, with_contents=with_contents
    )
    source = GitClone(path, options)
    try:
        if full or _new_database_file(db):
            source.start_log()  # nothing to resume from: git works while the database is created
            unchanged = None
        else:
            from prdigest.pipeline.quick import nothing_to_sync

            unchanged = nothing_to_sync(db, source)  # the common repeated sync: sqlite3 alone
        if unchanged is None:
            # Imported once git runs: the models and the store (SQLAlchemy) load while git works.
            from prdigest.pipeline.sync import sync_source
            from prdigest.sources.git.source import GitSource

            source = GitSource.taking_over(source)
            new_file = _new_sqlite_path(db)
            creating = creating_store(db) if new_file is None else creating_new_sqlite(new_file)
            with creating as store, _progress() as advance:
                stats = sync_source(store, source, fresh=full, on_record=advance)
                counts = (stats.total, stats.inserted, stats.updated, stats.unchanged)
                where = _redacted(store.url)
        else:
            counts, where = (0, 0, 0, 0), str(unchanged)
    finally:
        source.close()
    total, inserted, updated, kept = counts
    click.echo(
        f"synced {plural(total, 'pull request')} from {path} into {where} "
        f"({inserted} new, {updated} updated, {kept} unchanged)"
    )
    if source.counters.collisions:
        click.echo(_collision_summary(source.counters.collisions, source.counters.collisions_kept_by))
    if source.counters.files_without_contents:
        numbers = sorted(source.counters.prs_without_contents)
        shown = ", ".join(f"#{n}" for n in numbers[:10]) + (", …" if len(numbers) > 10 else "")
        click.echo(
            f"warning: {path} lacks the contents of {plural(source.counters.files_without_contents, 'file')} "
            f"(a partial clone offline, or a damaged copy): they are left out of the diffs and "
            f"{plural(len(numbers), 'pull request')} marked incomplete ({shown}); a full `git fetch` and "
            "`prdigest sync git --full` read them",
            err=True,
        )
    if source.shallow is not None:
        click.echo(_shallow_warning(path, source.incomplete_numbers), err=True)
    if source.counters.invalid_utf8_files:
        click.echo(
            f"note: {plural(source.counters.invalid_utf8_files, 'file patch', 'file patches')} held bytes "
            "that are not UTF-8; they are shown as U+FFFD",
            err=True,
        )


_RESOLUTIONS = {
    "empty-commit-skipped": "an empty commit passed over for the one with the diff",
    "same-pr-in-several-commits": "one PR landed in several commits of one title: one kept, the part not read "
    "named, marked incomplete",
    "another-pr-same-number": "another pull request carrying the same number (an older or merged-in history, "
    "a commit citing an issue): noted, not a gap",
    "all-empty-newest-kept": "only empty commits: the newest kept",
}


_KEPT_BY = {
    "pull-ref": "its refs/pull/N/head",
    "neighbouring-numbers": "the numbers around it on the main line",
    "newest-with-diff": "the newest commit with a diff",
}


def _collision_summary(collisions: dict[str, list[int]], kept_by: dict[str, list[int]]) -> str:
    """``number collisions: 3 PR numbers on several commits (2 …: #4, #9; 1 …: #12); the
    record chosen by …``."""
    total = sum(len(numbers) for numbers in collisions.values())
    parts = []
    for resolution, numbers in sorted(collisions.items()):
        shown = ", ".join(f"#{n}" for n in sorted(numbers)[:10]) + (", …" if len(numbers) > 10 else "")
        parts.append(f"{len(numbers)} {_RESOLUTIONS.get(resolution, resolution)}: {shown}")
    chosen = "; ".join(f"{len(numbers)} by {_KEPT_BY.get(way, way)}" for way, numbers in sorted(kept_by.items()))
    return f"number collisions: {plural(total, 'PR number')} carried by several commits ({'; '.join(parts)})" + (
        f"; the record's commit chosen {chosen}" if chosen else ""
    )


def _shallow_warning(path: Path, numbers: list[int]) -> str:
    marked = ", ".join(f"#{n}" for n in sorted(numbers))
    what = f"{marked} marked incomplete" if numbers else "no PR in this sync reached the cut"
    return (
        f"warning: {path} is a shallow clone: history stops at its oldest commits ({what}); "
        "run `git fetch --unshallow` there and sync again for complete records"
    )


def _new_database_file(db: str | None) -> bool:
    """Whether --db (or PRDIGEST_DB) names an SQLite file that does not exist yet.

    Decided without importing the store (SQLAlchemy), which is what git overlaps with; any
    other case (a server URL, the default location) is simply "not known to be new".
    """
    value = db or os.environ.get("PRDIGEST_DB")
    if not value:
        return False
    if value.startswith("sqlite:///"):
        value = value.removeprefix("sqlite:///").split("?", 1)[0]
        if not value or value == ":memory:":
            return False
    elif "://" in value:
        return False
    return not Path(value).expanduser().exists()


def _new_sqlite_path(db: str | None) -> Path | None:
    """The file --db (or PRDIGEST_DB) names as a plain path when it does not exist yet (a
    new file is written without SQLAlchemy, see `prdigest.store.new_sqlite`), else None."""
    value = db or os.environ.get("PRDIGEST_DB")
    if not value or "://" in value:
        return None
    path = Path(value).expanduser()
    return None if path.exists() else path.resolve()  # as `resolve_database_url` names it


def _redacted(url: str) -> str:
    if url.startswith("sqlite:///"):
        return url.removeprefix("sqlite:///")
    from prdigest.store.database import redact_url  # SQLAlchemy: not loaded for a SQLite file

    return redact_url(url)


class _Progress(AbstractContextManager[Any]):
    """A transient rich progress line on stderr, shown only when stderr is a terminal."""

    def __enter__(self) -> Any:
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self._progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.completed} pull requests"),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        self._progress.__enter__()
        task = self._progress.add_task("sync", total=None)

        def advance(_pr: object, _outcome: str) -> None:
            self._progress.advance(task)

        return advance

    def __exit__(self, *exc: object) -> None:
        self._progress.__exit__(None, None, None)


def _progress() -> AbstractContextManager[Any]:
    if sys.stderr.isatty():
        return _Progress()
    return nullcontext(None)
