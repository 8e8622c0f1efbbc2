"""``prdigest list`` and ``prdigest show``: read what is stored."""

from __future__ import annotations

import json

import click

from prdigest.cli.options import db_option, open_store, parse_date, parse_pr_ref
from prdigest.text import printable


@click.command("list")
@click.option("--repo", "repository", metavar="OWNER/NAME", help="Only this repository.")
@click.option("--since", metavar="DATE", help="Only PRs merged (or opened) on or after DATE.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="At most N PRs.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON lines instead of a table.")
@db_option
def list_prs(repository: str | None, since: str | None, limit: int | None, as_json: bool, db: str | None) -> None:
    """List stored pull requests, newest first."""
    with open_store(db, "read") as store:
        rows = store.list_prs(repository=repository, since=parse_date(since), limit=limit)
    if as_json:
        for row in rows:
            click.echo(
                json.dumps(
                    {
                        "repository": row.repository,
                        "number": row.number,
                        "title": row.title,
                        "state": row.state,
                        "author": row.author,
                        "merged_at": row.merged_at.isoformat() + "Z" if row.merged_at else None,
                        "additions": row.additions,
                        "deletions": row.deletions,
                        "changed_files": row.changed_files,
                        "source": row.source,
                    },
                    ensure_ascii=False,
                )
            )
        return
    if not rows:
        click.echo("no pull requests stored" + (f" for {repository}" if repository else ""))
        return
    for row in rows:
        when = row.merged_at.strftime("%Y-%m-%d") if row.merged_at else "open      "
        title = " ".join(row.title.split())
        click.echo(printable(f"{row.repository}#{row.number:<6} {when} +{row.additions}/-{row.deletions} {title}"))


@click.command("show")
@click.argument("ref", metavar="OWNER/NAME#N")
@click.option("--json", "as_json", is_flag=True, help="Print the whole stored record as JSON.")
@db_option
def show(ref: str, as_json: bool, db: str | None) -> None:
    """Show one stored pull request record."""
    repository, number = parse_pr_ref(ref)
    with open_store(db, "read") as store:
        pr = store.get_pr(repository, number)
    if as_json:
        click.echo(pr.model_dump_json(indent=2))
        return
    click.echo(printable(f"{pr.ref}  {' '.join(pr.title.split())}"))
    click.echo(printable(f"state: {pr.state.value}   author: {pr.author or '?'}   merged: {pr.merged_at or '-'}"))
    if pr.url:
        click.echo(printable(f"url: {pr.url}"))
    click.echo(f"files: {len(pr.files)}  (+{pr.additions} / -{pr.deletions})   commits: {len(pr.commits)}")
    for change in pr.files[:50]:
        moved = f" (from {change.previous_path})" if change.previous_path else ""
        flag = " [binary]" if change.binary else ""
        click.echo(
            printable(f"  {change.status.value:<8} {change.path}{moved} +{change.additions}/-{change.deletions}{flag}")
        )
    if len(pr.files) > 50:
        click.echo(f"  ... and {len(pr.files) - 50} more files")
    if pr.reviews or pr.review_threads or pr.comments:
        click.echo(
            f"reviews: {len(pr.reviews)}  review threads: {len(pr.review_threads)}  comments: {len(pr.comments)}"
        )
    if pr.body.strip():
        click.echo("")
        click.echo(printable(pr.body.strip()))
