"""``prdigest deps``: the dependency ledger of a repository, or of one package in it."""

from __future__ import annotations

import json

import click

from prdigest.cli.options import db_option, open_store
from prdigest.models.ledger import LedgerEntry
from prdigest.text import printable


def _spec(requirement: str | None, package: str) -> str:
    if requirement is None:
        return "(none)"
    text = requirement.split("#", 1)[0].strip()
    rest = text[len(package) :].strip() if text.lower().startswith(package.lower()) else text
    return rest or "(any)"


def entry_line(entry: LedgerEntry) -> str:
    when = entry.merged_at.strftime("%Y-%m-%d") if entry.merged_at else "?         "
    change = f"{_spec(entry.before, entry.package)} -> {_spec(entry.after, entry.package)}"
    extra = [", ".join(entry.kinds), entry.scope]
    if entry.condition:
        extra.append(f"when {entry.condition}")
    if entry.replaced_by:
        extra.append(f"replaced by {entry.replaced_by}")
    title = " ".join(entry.title.split())
    return f"#{entry.number:<6} {when} {entry.path}: {change} ({'; '.join(extra)})  {title}"


@click.command("deps")
@click.argument("repository", metavar="OWNER/NAME")
@click.argument("package", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@db_option
def deps(repository: str, package: str | None, as_json: bool, db: str | None) -> None:
    """The dependency ledger: every constraint change of PACKAGE in merged PRs, in merge order
    (without PACKAGE: the packages that changed, most changed first).

    Filled by `prdigest analyze`; PRs analyzed before the ledger existed need a re-analysis."""
    from prdigest.pipeline.ledger import package_history, package_list

    with open_store(db, "read") as store:
        if package is None:
            packages = package_list(store, repository)
            if as_json:
                body = {
                    "repository": repository,
                    "packages": [
                        {"package": p.package, "changes": p.changes, "pull_requests": p.pull_requests} for p in packages
                    ],
                }
                click.echo(json.dumps(body, ensure_ascii=False, indent=2))
                return
            if not packages:
                click.echo(f"no dependency changes recorded for {repository}")
                return
            for p in packages:
                click.echo(printable(f"{p.package:<40} {p.changes:>4} changes in {p.pull_requests:>4} PRs"))
            return
        history = package_history(store, repository, package)
    if as_json:
        body = {
            "repository": history.repository,
            "package": history.package,
            "entries": [e.model_dump(mode="json") for e in history.entries],
        }
        click.echo(json.dumps(body, ensure_ascii=False, indent=2))
        return
    if not history.entries:
        click.echo(f"no changes of {history.package} recorded for {repository}")
        return
    click.echo(f"{history.package} in {history.repository}: {len(history.entries)} changes, in merge order")
    for entry in history.entries:
        click.echo(printable(entry_line(entry)))
