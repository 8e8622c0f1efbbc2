"""``prdigest watch add|list|remove``: a reader's slice of one repository, read with
``prdigest digest NAME``."""

from __future__ import annotations

import click

from prdigest.cli.options import db_option, open_store
from prdigest.words import languages

LEVELS = ("skip", "quick-read", "read-in-depth")


@click.group("watch")
def watch() -> None:
    """Watches: follow the paths, packages, symbols and people you care about in a repository.

    A pull request is in a watch when it touches a watched path, changes a dependency on a
    watched package (as the dependency ledger records it), adds, changes or removes a watched
    symbol, or is authored or reviewed by a watched person. Read what is new with
    `prdigest digest NAME`.
    """


@watch.command("add")
@click.argument("name")
@click.option("--repo", "repository", required=True, metavar="OWNER/NAME", help="The repository to watch.")
@click.option("--path", "paths", multiple=True, metavar="GLOB", help="Files: src/sched/**, *.proto, docs (repeatable).")
@click.option("--package", "packages", multiple=True, metavar="PKG", help="A dependency, by name (repeatable).")
@click.option("--symbol", "symbols", multiple=True, metavar="NAME", help="A function, class or method (repeatable).")
@click.option("--author", "people", multiple=True, metavar="LOGIN", help="A person who writes or reviews (repeatable).")
@click.option(
    "--lang", type=click.Choice(languages()), default=languages()[0], show_default=True, help="Digest language."
)
@click.option(
    "--min-level",
    type=click.Choice(LEVELS),
    default="skip",
    show_default=True,
    help="Leave out PRs whose verdict is below this (quick-read: no skip items).",
)
@db_option
def watch_add(
    name: str,
    repository: str,
    paths: tuple[str, ...],
    packages: tuple[str, ...],
    symbols: tuple[str, ...],
    people: tuple[str, ...],
    lang: str,
    min_level: str,
    db: str | None,
) -> None:
    """Add the watch NAME on --repo; adding NAME again replaces its rules (what it delivered stays read)."""
    from prdigest.pipeline.watch_rules import create_watch, describe, new_watch

    entry = new_watch(
        name, repository, paths=paths, packages=packages, symbols=symbols, people=people, lang=lang, min_level=min_level
    )
    store = open_store(db, "write")
    try:
        new = create_watch(store, entry)
    finally:
        store.close()
    click.echo(f"{'added' if new else 'updated'} watch {name} on {repository}: {describe(entry)}")


@watch.command("list")
@db_option
def watch_list(db: str | None) -> None:
    """List the watches: repository, rules, language and when each digest was last read."""
    from prdigest.pipeline.watch_rules import describe
    from prdigest.store.watch_store import delivered_count, list_watches
    from prdigest.text import printable

    store = open_store(db, "read")
    try:
        entries = [(entry, delivered_count(store, entry.name)) for entry in list_watches(store)]
    finally:
        store.close()
    if not entries:
        click.echo("no watch yet (add one with `prdigest watch add NAME --repo OWNER/NAME --path GLOB`)")
        return
    for entry, delivered in entries:
        read = "never read" if entry.last_read_at is None else f"last read {entry.last_read_at:%Y-%m-%d %H:%M} UTC"
        click.echo(
            printable(
                f"{entry.name}\t{entry.repository}\t{entry.lang}\t{read}, {delivered} delivered\t{describe(entry)}"
            )
        )


@watch.command("remove")
@click.argument("name")
@db_option
def watch_remove(name: str, db: str | None) -> None:
    """Remove the watch NAME and what it remembers having delivered."""
    from prdigest.store.watch_store import remove_watch

    store = open_store(db, "write")
    try:
        remove_watch(store, name)
    finally:
        store.close()
    click.echo(f"removed watch {name}")
