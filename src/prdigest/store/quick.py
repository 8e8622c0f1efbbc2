"""SQLite-only reads for the start-up-bound commands, with the standard library's sqlite3.

``prdigest analyze`` with nothing new and ``prdigest report`` of a cached report are decided
by a few queries; loading SQLAlchemy (and the pydantic models) would cost several times the
work. Every function here answers None (or False) when it cannot decide — another database,
a missing or read-only file, an older schema, any SQLite error — and the caller then takes
the normal path through `prdigest.store.Store`, which does the same work (and reports the
same errors) in full. The writes are those of a first report: its offline narrative
(`save_narrative`, as `narrative_store` stores it) and the rendered document
(`save_report`, under the rules of `prdigest.store.report_cache_store`).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from prdigest.store.links import Link
from prdigest.store.revisions import HEAD_REVISION

DB_ENV_VAR = "PRDIGEST_DB"
BUSY_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class ReportInputs:
    """What `report_inputs` reads of one stored PR."""

    pr_id: int
    record: str
    texts: str | None  # the row's file-text references (`prdigest.store.file_texts`)
    record_hash: str
    facts_key: str | None
    facts: str | None
    epoch: int | None


def default_database_path() -> Path:
    """``prdigest.db`` in the user's data directory (XDG on Linux)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("prdigest", appauthor=False)) / "prdigest.db"


def writable(path: Path) -> bool:
    """Whether this process can write the SQLite file and the -wal/-shm files beside it."""
    if not os.access(path, os.W_OK):
        return False
    if os.access(path.parent, os.W_OK):
        return True
    return all(os.access(f"{path}{suffix}", os.W_OK) for suffix in ("-wal", "-shm"))


def sqlite_path(db: str | None, environ: Mapping[str, str] | None = None) -> Path | None:
    """The existing SQLite file ``--db``/``PRDIGEST_DB``/the default names, or None (a URL, a
    missing file, a folder: the normal path resolves those and says what is wrong)."""
    env = os.environ if environ is None else environ
    value = db or env.get(DB_ENV_VAR) or str(default_database_path())
    if "://" in value:
        return None
    path = Path(value).expanduser()
    return path.resolve() if path.is_file() else None


@contextmanager
def reading(path: Path) -> Iterator[sqlite3.Connection | None]:
    """A connection reading ``path`` in one snapshot, or None when the file cannot be read
    this way or its schema is not this prdigest's."""
    try:
        if writable(path):
            connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        else:
            connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    except sqlite3.Error:
        yield None
        return
    with closing(connection):
        try:
            # What the store sets: a report's writes (`save_narrative`, `save_report`) are
            # durable under WAL without a sync at each commit.
            connection.execute("PRAGMA synchronous=NORMAL")
            connection.execute("PRAGMA foreign_keys=ON")
            connection.execute("BEGIN")
            if _revision(connection) != HEAD_REVISION:
                yield None
                return
        except sqlite3.Error:
            yield None
            return
        yield connection


def _revision(connection: sqlite3.Connection) -> str | None:
    found = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'")
    if found.fetchone() is None:
        return None
    row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    return None if row is None else str(row[0])


def analysis_keys(connection: sqlite3.Connection, repository: str | None) -> list[tuple[str, str | None]]:
    """(record hash, cache key of the stored facts or None) of every PR, or a repository's:
    the same rows as `prdigest.store.facts_store.analysis_states`."""
    sql = (
        "SELECT p.record_hash, f.cache_key FROM pull_requests p "
        "JOIN repositories r ON r.id = p.repository_id "
        "LEFT JOIN facts f ON f.pull_request_id = p.id"
    )
    rows = connection.execute(sql + " WHERE r.full_name = ?", (repository,)) if repository else connection.execute(sql)
    return [(str(row[0]), None if row[1] is None else str(row[1])) for row in rows]


def saved_sync_state(connection: sqlite3.Connection, repository: str, source: str) -> str | None:
    """The resume state saved for ``repository`` and ``source`` as stored (JSON text), or
    None: what `prdigest.store.Store.get_sync_state` reads."""
    row = connection.execute(
        "SELECT s.state FROM sync_states s JOIN repositories r ON r.id = s.repository_id "
        "WHERE r.full_name = ? AND s.source = ?",
        (repository, source),
    ).fetchone()
    return None if row is None else str(row[0])


def encode_sync_state(state: Mapping[str, Any]) -> str:
    """A resume state as every writer stores it: `Store.set_sync_state` writes nothing when
    the stored text equals this."""
    return json.dumps(state, sort_keys=True)


def search_stamp(record_hash: str, facts_key: str | None, count: int | None, last_id: int | None) -> str:
    """What a search row was built from (`prdigest.store.search_store` rebuilds a row whose
    stamp differs): the record, the facts and the PR's narratives."""
    return f"{record_hash[:32]}:{facts_key or '-'}:{count or 0}.{last_id or 0}"


def stale_origins(connection: sqlite3.Connection, repository: str | None, any_mark: str, current_mark: str) -> bool:
    """Whether some facts hold origins (``any_mark``) blamed by another version than
    ``current_mark`` says: what `lineage_queries.facts_lacking` answers."""
    sql = (
        "SELECT 1 FROM facts f JOIN pull_requests p ON p.id = f.pull_request_id "
        "JOIN repositories r ON r.id = p.repository_id "
        "WHERE instr(f.body, ?) > 0 AND instr(f.body, ?) = 0"
    )
    args: tuple[str, ...] = (any_mark, current_mark)
    if repository:
        sql += " AND r.full_name = ?"
        args += (repository,)
    return connection.execute(sql + " LIMIT 1", args).fetchone() is not None


def search_current(connection: sqlite3.Connection, repository: str | None) -> bool:
    """Whether `search_store.reindex(store, repository)` would change nothing: every PR's row
    is current and no row is left of a deleted PR."""
    sql = """
        SELECT p.record_hash, f.cache_key, n.count, n.last_id, s.stamp
        FROM pull_requests p
        JOIN repositories r ON r.id = p.repository_id
        LEFT JOIN facts f ON f.pull_request_id = p.id
        LEFT JOIN (SELECT pull_request_id, COUNT(*) AS count, MAX(id) AS last_id
                   FROM narratives GROUP BY pull_request_id) n ON n.pull_request_id = p.id
        LEFT JOIN pr_search s ON s.rowid = p.id
    """
    rows = connection.execute(sql + " WHERE r.full_name = ?", (repository,)) if repository else connection.execute(sql)
    if any(row[4] != search_stamp(str(row[0]), row[1], row[2], row[3]) for row in rows):
        return False
    orphan = connection.execute("SELECT 1 FROM pr_search WHERE rowid NOT IN (SELECT id FROM pull_requests) LIMIT 1")
    return orphan.fetchone() is None


def cached_report(
    connection: sqlite3.Connection, repository: str, number: int, lang: str, length: str, fmt: str, code: str
) -> str | None:
    """The rendered report stored for these choices by this code (``code``, its fingerprint)
    while nothing has been written to the database since (the epoch has not moved), else None."""
    row = connection.execute(
        "SELECT c.body FROM report_cache c "
        "JOIN pull_requests p ON p.id = c.pull_request_id "
        "JOIN repositories r ON r.id = p.repository_id "
        "WHERE r.full_name = ? AND p.number = ? AND c.lang = ? AND c.length = ? AND c.format = ? "
        "AND c.code = ? AND c.epoch = (SELECT value FROM report_epoch WHERE id = 1)",
        (repository, number, lang, length, fmt, code),
    ).fetchone()
    return None if row is None else str(row[0])


def report_inputs(connection: sqlite3.Connection, repository: str, number: int) -> ReportInputs | None:
    """The stored PR's row id, record (JSON without file texts), text references and record
    hash, with its facts' cache key and body (None when not analyzed), and the write epoch of
    this snapshot; None when not stored."""
    row = connection.execute(
        "SELECT p.id, p.record, p.texts, p.record_hash, f.cache_key, f.body FROM pull_requests p "
        "JOIN repositories r ON r.id = p.repository_id "
        "LEFT JOIN facts f ON f.pull_request_id = p.id "
        "WHERE r.full_name = ? AND p.number = ?",
        (repository, number),
    ).fetchone()
    if row is None:
        return None
    epoch = connection.execute("SELECT value FROM report_epoch WHERE id = 1").fetchone()
    return ReportInputs(
        pr_id=int(row[0]),
        record=str(row[1]),
        texts=None if row[2] is None else str(row[2]),
        record_hash=str(row[3]),
        facts_key=None if row[4] is None else str(row[4]),
        facts=None if row[5] is None else str(row[5]),
        epoch=None if epoch is None else int(epoch[0]),
    )


def file_texts(connection: sqlite3.Connection, digests: set[str]) -> dict[str, str]:
    """Stored file texts by digest, as `prdigest.store.file_texts` reads them."""
    wanted = sorted(digests)
    found: dict[str, str] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        rows = connection.execute(
            f"SELECT digest, body FROM file_texts WHERE digest IN ({', '.join('?' * len(chunk))})", chunk
        )
        for digest, body in rows:
            found[str(digest)] = bytes(body).decode("utf-8")
    return found


_LINKS = (
    "SELECT repositories.full_name, pull_requests.number, pull_requests.title, pr_links.target_repository, "
    "pr_links.target_number, pr_links.target_kind, pr_links.relation, pr_links.found_in, pr_links.evidence "
    "FROM pr_links JOIN pull_requests ON pull_requests.id = pr_links.pull_request_id "
    "JOIN repositories ON repositories.id = pull_requests.repository_id "
)


def links_from(connection: sqlite3.Connection, repository: str, number: int) -> list[Link]:
    """`prdigest.store.facts_store.links_from`, same query."""
    rows = connection.execute(
        _LINKS + "WHERE repositories.full_name = ? AND pull_requests.number = ? ORDER BY pr_links.id",
        (repository, number),
    )
    return [Link(*row) for row in rows]


def links_to(connection: sqlite3.Connection, repository: str, number: int) -> list[Link]:
    """`prdigest.store.facts_store.links_to`, same query (so the same order)."""
    rows = connection.execute(
        _LINKS + "WHERE pr_links.target_repository = ? AND pr_links.target_number = ? ORDER BY pull_requests.number",
        (repository, number),
    )
    return [Link(*row) for row in rows]


def titles(connection: sqlite3.Connection, repository: str, numbers: list[int]) -> dict[int, str]:
    """`prdigest.store.facts_store.titles`."""
    if not numbers:
        return {}
    marks = ", ".join("?" * len(numbers))
    rows = connection.execute(
        "SELECT pull_requests.number, pull_requests.title FROM pull_requests "
        "JOIN repositories ON repositories.id = pull_requests.repository_id "
        f"WHERE repositories.full_name = ? AND pull_requests.number IN ({marks})",
        (repository, *numbers),
    )
    return {int(r[0]): str(r[1]) for r in rows}


def narrative_body(connection: sqlite3.Connection, pr_id: int, lang: str, length: str, cache_key: str) -> str | None:
    """The narrative stored under ``cache_key`` (JSON), as `narrative_store.get_narrative` reads it."""
    row = connection.execute(
        "SELECT body FROM narratives WHERE pull_request_id = ? AND lang = ? AND length = ? AND cache_key = ?",
        (pr_id, lang, length, cache_key),
    ).fetchone()
    return None if row is None else str(row[0])


def ledger_rows(connection: sqlite3.Connection, repository: str, packages: list[str]) -> list[tuple[Any, ...]]:
    """`prdigest.store.ledger_store.ledger_entries`'s rows for canonical package names
    ``packages`` (the same query, so the same merge order); see `store.ledger_rows`."""
    if not packages:
        return []
    marks = ", ".join("?" * len(packages))
    return list(
        connection.execute(
            "SELECT repositories.full_name, pull_requests.number, pull_requests.title, pull_requests.merged_at, "
            'dependency_changes.path, dependency_changes.package, dependency_changes."before", '
            'dependency_changes."after", dependency_changes.kinds, dependency_changes.scope, '
            "dependency_changes.condition, dependency_changes.replaced_by "
            "FROM dependency_changes JOIN pull_requests ON pull_requests.id = dependency_changes.pull_request_id "
            "JOIN repositories ON repositories.id = pull_requests.repository_id "
            "WHERE pull_requests.repository_id = (SELECT id FROM repositories WHERE full_name = ?) "
            f"AND pull_requests.merged_at IS NOT NULL AND dependency_changes.package IN ({marks}) "
            "ORDER BY pull_requests.merged_at, pull_requests.number, dependency_changes.position",
            (repository, *packages),
        )
    )


@dataclass(frozen=True)
class NarrativeRow:
    """A narrative as `narrative_store.save_narratives` stores it (its JSON ``body`` and cost)."""

    lang: str
    length: str
    cache_key: str
    narrator: str
    model: str | None
    body: str
    tokens_in: int
    tokens_out: int
    calls: int
    seconds: float


def save_narrative(connection: sqlite3.Connection, pr_id: int, row: NarrativeRow) -> bool:
    """Store a narrative made from this connection's snapshot, replacing what
    `narrative_store.save_narratives` replaces (the same key, or the same narrator and model);
    committed with the report by `save_report`. False (nothing written) when someone wrote
    since the snapshot, or the file cannot be written."""
    same_model = "model IS NULL" if row.model is None else "model = ?"
    try:
        connection.execute(
            "DELETE FROM narratives WHERE pull_request_id = ? AND lang = ? AND length = ? "
            f"AND (cache_key = ? OR (narrator = ? AND {same_model}))",
            (pr_id, row.lang, row.length, row.cache_key, row.narrator, *(() if row.model is None else (row.model,))),
        )
        connection.execute(
            "INSERT INTO narratives (pull_request_id, lang, length, cache_key, narrator, model, body, "
            "tokens_in, tokens_out, calls, seconds, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                pr_id,
                row.lang,
                row.length,
                row.cache_key,
                row.narrator,
                row.model,
                row.body,
                row.tokens_in,
                row.tokens_out,
                row.calls,
                row.seconds,
                # SQLAlchemy's SQLite DATETIME text, naive UTC as the store writes it
                datetime.now(UTC).replace(tzinfo=None).isoformat(sep=" ", timespec="microseconds"),
            ),
        )
    except sqlite3.Error:
        _rollback(connection)
        return False
    return True


def _rollback(connection: sqlite3.Connection) -> None:
    if connection.in_transaction:
        connection.execute("ROLLBACK")


def save_report(connection: sqlite3.Connection, pr_id: int, choice: tuple[str, str, str], code: str, body: str) -> bool:
    """Store a report rendered from this connection's snapshot (`reading`), as
    `report_cache_store.save_report` does. The read transaction becomes a write one only if
    nobody wrote since the snapshot (SQLite refuses otherwise), so the document is stored
    under the epoch its inputs were read in, or not at all (False)."""
    lang, length, fmt = choice
    try:
        epoch = connection.execute("SELECT value FROM report_epoch WHERE id = 1").fetchone()[0]
        # Documents of an older epoch can never be shown again.
        connection.execute("DELETE FROM report_cache WHERE epoch <> ?", (epoch,))
        connection.execute(
            "INSERT INTO report_cache (pull_request_id, lang, length, format, code, epoch, body) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (pull_request_id, lang, length, format) DO UPDATE SET "
            "code = excluded.code, epoch = excluded.epoch, body = excluded.body",
            (pr_id, lang, length, fmt, code, epoch, body),
        )
        connection.execute("COMMIT")
    except sqlite3.Error:
        _rollback(connection)
        return False
    return True
