"""Answers of the start-up-bound commands without SQLAlchemy (and, but for `quick_report`
and the sync's git source, without pydantic or the analyzers): ``prdigest analyze`` and ``prdigest sync git`` when
nothing is new, ``prdigest report`` of a cached report, and of a PR whose facts and
narrative are stored.

Each returns None when it cannot answer for sure, and the command then takes its normal
path, which would have come to the same answer (tests/pipeline/test_quick.py compares them).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from prdigest.analyzers.versions import CURRENT_ORIGINS_MARK, ORIGINS_MARK, facts_key
from prdigest.store import quick

if TYPE_CHECKING:
    from prdigest.models.narrative import Length, Narrative
    from prdigest.sources.git.clone import GitClone

Choice = tuple[str, str, str]  # (lang, length, format)


@contextmanager
def _database(db: str | None, *, writes: bool = False) -> Iterator[tuple[Path, sqlite3.Connection] | None]:
    """The SQLite file the command would use and a connection reading it in one snapshot;
    None when this path cannot answer for it (a URL, no file, another schema, or a file the
    command could not write when ``writes``): the normal path then does the work."""
    path = quick.sqlite_path(db)
    if path is None or (writes and not quick.writable(path)):
        yield None
        return
    with quick.reading(path) as connection:
        yield None if connection is None else (path, connection)


def nothing_to_analyze(db: str | None, repository: str | None) -> int | None:
    """The number of PRs (all, or ``repository``'s) when every one has current facts and a
    current search row, so ``prdigest analyze`` (without --all, --rules, --versions or
    --since) would analyze and index nothing; else None."""
    # analyze refuses a read-only file: let it say so
    with _database(db, writes=True) as opened:
        if opened is None:
            return None
        _path, connection = opened
        keys = quick.analysis_keys(connection, repository)
        if any(stored != facts_key(record_hash) for record_hash, stored in keys):
            return None
        if not quick.search_current(connection, repository):
            return None
        if quick.stale_origins(connection, repository, ORIGINS_MARK, CURRENT_ORIGINS_MARK):
            return None  # analyze blames those fixes again
        return len(keys)


def nothing_to_sync(db: str | None, source: GitClone) -> Path | None:
    """The SQLite file ``prdigest sync git`` (without --full) would write nothing to: it is
    at this prdigest's schema, holds the source's saved resume state, the source finds no
    record new since that state and would save it unchanged, and every search row of the
    repository is current (the sync's re-indexing would change nothing). Else None."""
    repository = source.repository
    # a read-only file: the sync says what is wrong
    with _database(db, writes=True) as opened:
        if opened is None:
            return None
        path, connection = opened
        saved = quick.saved_sync_state(connection, repository, source.name)
        if saved is None or not quick.search_current(connection, repository):
            return None
        state = json.loads(saved)
        if not isinstance(state, dict):
            return None

        def kept(resume: dict[str, Any]) -> bool:
            return quick.encode_sync_state(resume) == saved

        return path if source.nothing_new(state, kept) else None


def code_fingerprint() -> str:
    """A digest of this prdigest's files (code, words, templates: name, size, modification
    time) and of the Python running it: a cached report made by other code is never shown."""
    return tree_fingerprint(Path(__file__).resolve().parent.parent)


def tree_fingerprint(root: Path) -> str:
    """The digest of the Python running and of every file below ``root`` (relative name,
    size, modification time; ``__pycache__`` and bytecode aside)."""
    lines: list[str] = []
    _list_files(str(root), "", lines)
    digest = hashlib.sha256(sys.version.encode())
    digest.update("".join(lines).encode())
    return digest.hexdigest()[:32]


def _list_files(folder: str, prefix: str, lines: list[str]) -> None:
    """One line per file below ``folder`` (``__pycache__`` and bytecode aside), in the order
    of ``os.walk``: a folder's files by name, then its subfolders by name. Every command that
    reads the report cache pays for this walk, so no ``os.path.relpath`` per file."""
    try:
        with os.scandir(folder) as listing:
            entries = list(listing)
    except OSError:
        return  # os.walk skips a folder it cannot list
    files = sorted((e for e in entries if not e.is_dir()), key=lambda e: e.name)
    for entry in files:
        if not entry.name.endswith((".pyc", ".pyo")):
            info = entry.stat()
            lines.append(f"{prefix}{entry.name}\0{info.st_size}\0{info.st_mtime_ns}\n")
    folders = sorted((e for e in entries if e.is_dir() and e.name != "__pycache__"), key=lambda e: e.name)
    for entry in folders:
        if not entry.is_symlink():  # os.walk does not follow links to folders either
            _list_files(entry.path, f"{prefix}{entry.name}{os.sep}", lines)


def cached_report(db: str | None, repository: str, number: int, lang: str, length: str, fmt: str) -> str | None:
    """The report ``prdigest report`` would write (offline narrator, no --refresh), when this
    code rendered it before and nothing was written to the database since; else None."""
    with _database(db) as opened:
        if opened is None:
            return None
        _path, connection = opened
        return quick.cached_report(connection, repository, number, lang, length, fmt, code_fingerprint())


def quick_report(db: str | None, repository: str, number: int, lang: str, length: str, fmt: str) -> str | None:
    """The report ``prdigest report`` would write (offline narrator, no --refresh): the cached
    document (`cached_report`), else made with sqlite3 instead of the store when the PR's
    facts are current: its offline narrative is read, or made and stored as the normal path
    stores it, and the document is kept in the report cache. None when it cannot answer for
    sure (the normal path then does the work)."""
    with _database(db) as opened:
        if opened is None:
            return None
        path, connection = opened
        code = code_fingerprint()
        cached = quick.cached_report(connection, repository, number, lang, length, fmt, code)
        if cached is not None:
            return cached
        inputs = quick.report_inputs(connection, repository, number)
        if inputs is None or inputs.facts is None or inputs.facts_key != facts_key(inputs.record_hash):
            return None  # unknown PR or facts to analyze: the normal path says so or analyzes
        # A read-only file: narrated, not cached (as the store does).
        keep = inputs.epoch is not None and quick.writable(path)
        return _report(connection, repository, number, inputs, (lang, length, fmt), code if keep else None)


def _report(
    connection: sqlite3.Connection,
    repository: str,
    number: int,
    inputs: quick.ReportInputs,
    choice: Choice,
    keep: str | None,
) -> str | None:
    """The document, stored under code fingerprint ``keep`` (with a narrative made now) unless None."""
    # The models and renderers load pydantic; `nothing_to_analyze` and `cached_report` need neither.
    from prdigest.models.facts import Facts
    from prdigest.models.ledger import LedgerLink
    from prdigest.models.narrative import Narrative
    from prdigest.narrate.extractive import EXTRACTIVE_VERSION, narrate_extractive
    from prdigest.pipeline.ledger_place import place_changes
    from prdigest.pipeline.narrative_key import cache_key
    from prdigest.pipeline.related_notes import related_notes, same_repository_targets
    from prdigest.render.build import build_report
    from prdigest.render.formats import report_format
    from prdigest.store.ledger_rows import ledger_entry
    from prdigest.store.record_texts import text_refs, wanted_digests, with_texts
    from prdigest.words import Lang

    lang, length, fmt = cast(Lang, choice[0]), cast("Length", choice[1]), choice[2]  # checked by the options
    refs = text_refs(inputs.texts)
    pr = with_texts(inputs.record, refs, quick.file_texts(connection, wanted_digests(refs)))
    facts = Facts.model_validate_json(inputs.facts or "")
    outgoing = quick.links_from(connection, repository, number)
    titles = quick.titles(connection, repository, same_repository_targets(repository, outgoing))
    related = related_notes(repository, number, outgoing, titles, quick.links_to(connection, repository, number))
    key = cache_key(pr, facts, related, lang, length, EXTRACTIVE_VERSION, None)
    body = quick.narrative_body(connection, inputs.pr_id, lang, length, key)
    if body is None:
        made = narrate_extractive(pr, facts, related, lang, length)
        body = made.model_dump_json()
        if keep is not None and not quick.save_narrative(connection, inputs.pr_id, _narrative_row(made, key, body)):
            return None  # someone wrote since this snapshot was read: the normal path reads again
    # Read back from its JSON, as the normal path renders a narrative it has just stored.
    narrative = Narrative.model_validate_json(body)
    ledger: list[LedgerLink] = []
    if facts.dependencies.changes:
        from prdigest.models.ledger import canonical_package  # the models load pydantic: only here

        names = sorted({canonical_package(c.package) for c in facts.dependencies.changes})
        entries = [ledger_entry(row) for row in quick.ledger_rows(connection, repository, names)]
        ledger = place_changes(number, facts, entries)
    text = report_format(fmt).render(build_report(pr, facts, narrative, lang, length, ledger=ledger))
    if keep is not None:
        quick.save_report(connection, inputs.pr_id, choice, keep, text)
    return text


def _narrative_row(narrative: Narrative, key: str, body: str) -> quick.NarrativeRow:
    cost = narrative.cost
    return quick.NarrativeRow(
        lang=narrative.lang,
        length=narrative.length,
        cache_key=key,
        narrator=narrative.narrator,
        model=cost.model,
        body=body,
        tokens_in=cost.tokens_in,
        tokens_out=cost.tokens_out,
        calls=cost.calls,
        seconds=cost.seconds,
    )
