"""Incremental publishing: what each PR's pages were built from, so an unchanged PR's pages
are neither rendered nor rewritten by the next ``prdigest publish`` to the same folder.

A PR's stamp digests everything its pages show or are narrated from: the stored record's
hash, its stored facts (and that they are current), its stored narratives, its related
work, the ledger neighbours of its dependency changes, the languages, and this prdigest's
code and words (`pipeline.quick.code_fingerprint`). The folder keeps the stamps with the
feed items and index rows they stand for (``MANIFEST``), so the feeds and the index are
still rebuilt from every PR. Offline narration only: with an LLM every page is made.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prdigest.analyzers.versions import facts_key
from prdigest.models.feed import FeedItem
from prdigest.models.ledger import LedgerEntry
from prdigest.models.narrative import RelatedNote
from prdigest.render.site_index import IndexRow
from prdigest.store.ledger_store import ledger_entries
from prdigest.store.publish_store import PageInputs
from prdigest.store.store import Store
from prdigest.words import Lang

MANIFEST = ".prdigest-publish.json"
MANIFEST_VERSION = 1


@dataclass(frozen=True)
class PageEntry:
    """One PR's published pages: the stamp they were built under, the files, and what the
    feeds and the index show of it."""

    stamp: str
    packages: list[str]  # of its facts' dependency changes (their ledger neighbours are stamped)
    files: list[str]
    items: dict[str, FeedItem]  # by language
    rows: dict[str, IndexRow]


def load_manifest(out: Path) -> dict[int, PageEntry]:
    """The stamps of the site in ``out`` (none when absent or unreadable). The file is removed:
    it is written again once the site is complete, so an interrupted run leaves no stamp of
    pages it may have half rewritten."""
    path = out / MANIFEST
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        path.unlink()
    except (OSError, ValueError):
        return {}
    if not isinstance(raw, dict) or raw.get("version") != MANIFEST_VERSION:
        return {}
    entries: dict[int, PageEntry] = {}
    try:
        for number, entry in raw["pages"].items():
            entries[int(number)] = PageEntry(
                stamp=str(entry["stamp"]),
                packages=[str(p) for p in entry["packages"]],
                files=[str(f) for f in entry["files"]],
                items={lang: FeedItem.model_validate(item) for lang, item in entry["items"].items()},
                rows={
                    lang: IndexRow(int(number), r[0], r[1], [(a, b) for a, b in r[2]])
                    for lang, r in entry["rows"].items()
                },
            )
    except (KeyError, TypeError, ValueError):
        return {}
    return entries


def save_manifest(out: Path, entries: dict[int, PageEntry]) -> None:
    pages: dict[str, Any] = {
        str(number): {
            "stamp": entry.stamp,
            "packages": entry.packages,
            "files": entry.files,
            "items": {lang: item.model_dump(mode="json") for lang, item in entry.items.items()},
            "rows": {lang: [row.title, row.verdict_label, row.links] for lang, row in entry.rows.items()},
        }
        for number, entry in entries.items()
    }
    temporary = out / (MANIFEST + ".tmp")
    temporary.write_text(json.dumps({"version": MANIFEST_VERSION, "pages": pages}), encoding="utf-8")
    os.replace(temporary, out / MANIFEST)


def facts_current(inputs: PageInputs | None) -> bool:
    """Whether the PR is stored with current facts (else they would be analyzed again)."""
    return inputs is not None and inputs.facts_key is not None and inputs.facts_key == facts_key(inputs.record_hash)


def page_stamp(
    store: Store,
    repository: str,
    inputs: PageInputs | None,
    related: list[RelatedNote],
    packages: list[str],
    languages: list[Lang],
    code: str,
    *,
    entries: list[LedgerEntry] | None = None,
) -> str | None:
    """The stamp of the PR's pages from what is stored now, ``related`` its related work
    (`pipeline.related.related_from_store`); None when they must be made (the PR is not
    stored, or its facts are missing or stale and would be analyzed again). ``entries``: the
    ledger of ``packages``, when already read."""
    if inputs is None or not facts_current(inputs):
        return None
    if entries is None:
        entries = ledger_entries(store, repository, packages) if packages else []
    ledger = [entry.model_dump(mode="json") for entry in entries]
    parts = {
        "code": code,
        "languages": list(languages),
        "record": inputs.record_hash,
        "facts": [inputs.facts_key, inputs.facts_digest],
        "narratives": inputs.narratives,
        "related": [note.model_dump(mode="json") for note in related],
        "packages": packages,
        "ledger": ledger,
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode("utf-8")).hexdigest()


def unchanged(out: Path, entry: PageEntry | None, stamp: str | None) -> bool:
    """Whether the PR's pages in ``out`` are those its stamp stands for, every file still there."""
    if entry is None or stamp is None or entry.stamp != stamp:
        return False
    return all((out / relative).is_file() for relative in entry.files)
