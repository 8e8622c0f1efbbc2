"""``prdigest import BUNDLE.json...``: load GitHub-API JSON bundles (docs/bundle-format.md).

Every bundle is validated before anything is written: one bad file imports nothing. Two
bundles of one PR import the one updated last (each such pair is reported), and a bundle
listing one comment id twice keeps the first (reported too), so the counts add up.
"""

from __future__ import annotations

from pathlib import Path

import click

from prdigest.cli.options import creating_store, db_option
from prdigest.cli.plural import plural
from prdigest.errors import BundleError


def _expand(paths: tuple[Path, ...]) -> list[Path]:
    """Files as given; a directory stands for the ``*.json`` files directly in it."""
    expanded: list[Path] = []
    for path in paths:
        if path.is_dir():
            expanded.extend(sorted(p for p in path.glob("*.json") if not p.name.startswith(".")))
        else:
            expanded.append(path)
    return expanded


@click.command("import")
@click.argument("bundles", nargs=-1, required=True, type=click.Path(path_type=Path))
@db_option
def import_bundles(bundles: tuple[Path, ...], db: str | None) -> None:
    """Validate and load BUNDLES (files, or folders of *.json) into the database."""
    paths = _expand(bundles)
    if not paths:
        raise BundleError("no bundle files given (folders are searched for *.json)")
    from prdigest.pipeline.sync import sync_source
    from prdigest.sources.github.bundle_source import BundleSource

    source = BundleSource(paths)  # validates every file before the database is opened
    for note in source.notes():
        click.echo(f"warning: {note}", err=True)
    duplicates = source.duplicates
    with creating_store(db) as store:
        stats = sync_source(store, source)
    skipped = f", {plural(len(duplicates), 'duplicate')} skipped" if duplicates else ""
    click.echo(
        f"imported {plural(len(source.loaded), 'bundle')}: {stats.inserted} new, {stats.updated} updated, "
        f"{stats.unchanged} unchanged{skipped}"
    )
