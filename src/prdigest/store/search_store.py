"""Full-text search over titles, bodies, comments and report text.

SQLite uses the FTS5 table ``pr_search`` (rowid = pull_requests.id); PostgreSQL a table with
a generated ``tsvector`` under a GIN index, queried with ``phraseto_tsquery('simple', ...)`` per word.
Both are created by migration 0002.

Chinese, Japanese and Korean text has no spaces between words, so neither tokenizer can
find a word inside a run of CJK characters. Indexed text and queries are therefore
*segmented*: every CJK character becomes its own token, and a query term becomes a phrase of
them, so "风险" finds "存在风险的改动".

Each row carries a ``stamp`` (record hash, facts cache key, narratives marker); `reindex`
rebuilds only rows whose stamp differs, so calling it at every start is cheap.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Row, bindparam, text

from prdigest.models.pullrequest import PullRequest
from prdigest.store.quick import search_stamp as _stamp
from prdigest.store.search_text import CJK as _CJK
from prdigest.store.search_text import RecordText, build_document, parse_facts, parse_narratives, segment
from prdigest.store.search_text import clean as _clean
from prdigest.store.store import Store
from prdigest.store.upsert import lock_pull_requests

if TYPE_CHECKING:
    pass

_WORDISH = re.compile(r"\w", re.UNICODE)
_BATCH = 200
# Snippet markers: control characters never kept in indexed text (see `_clean`).
MARK_START = "\x02"
MARK_END = "\x03"
MAX_QUERY_TERMS = 16


@cache
def _cjk_gap() -> re.Pattern[str]:
    """A space set by `segment` between two CJK characters, a snippet marker possibly in
    between. Compiled when first needed (snippets): its four wide classes cost a sync ~30 ms."""
    return re.compile(f"(?<=[{_CJK}]) (?=[\x02\x03]?[{_CJK}])|(?<=[{_CJK}][\x02\x03]) (?=[{_CJK}])")


@dataclass(frozen=True)
class SearchHit:
    repository: str
    number: int
    title: str
    state: str
    verdict: str | None
    merged_at: datetime | None
    created_at: datetime | None
    snippet: str  # plain text with MARK_START / MARK_END around matches; escape before display


@dataclass(frozen=True)
class ReindexStats:
    indexed: int
    removed: int
    current: int


def unsegment(value: str) -> str:
    """Undo `segment` for display (spaces between two CJK characters)."""
    return _cjk_gap().sub("", re.sub(r" {2,}", " ", value)).strip()


def fts5_query(query: str) -> str | None:
    """A user's words as an FTS5 query: every term a quoted phrase, terms ANDed.

    Quoting makes FTS5 operators (``AND``, ``NEAR``, ``*``, ``:``, parentheses) plain words,
    so no input is a syntax error. Returns None when nothing searchable is left.
    """
    phrases: list[str] = []
    for term in _clean(query).split()[:MAX_QUERY_TERMS]:
        if not _WORDISH.search(term):
            continue
        phrases.append('"' + segment(term).strip().replace('"', '""') + '"')
    return " ".join(phrases) if phrases else None


def postgres_terms(query: str) -> list[str]:
    """A user's words for PostgreSQL: each segmented, each handed to ``phraseto_tsquery``."""
    return [segment(t) for t in _clean(query).split()[:MAX_QUERY_TERMS] if _WORDISH.search(t)]


# --- keeping the index current ------------------------------------------------------------


def _is_sqlite(store: Store) -> bool:
    return store._engine.dialect.name == "sqlite"


def _stamp_query(
    store: Store, repository: str | None, number: int | None, ids: bool = False, record_hash: bool = True
) -> Any:
    search_key = "s.rowid" if _is_sqlite(store) else "s.pull_request_id"
    # record_hash follows the record in the row: on SQLite, reading it walks the record's
    # overflow pages (whole file texts), so it is left out when the caller knows it.
    hash_column = "p.record_hash" if record_hash else "NULL"
    where = ["p.id IN :ids"] if ids else []
    if repository is not None:
        where.append("r.full_name = :repository")
    if number is not None:
        where.append("p.number = :number")
    clause = ("WHERE " + " AND ".join(where)) if where else ""
    statement = text(
        f"""
        SELECT p.id, {hash_column}, f.cache_key, n.count, n.last_id, s.stamp
        FROM pull_requests p
        JOIN repositories r ON r.id = p.repository_id
        LEFT JOIN facts f ON f.pull_request_id = p.id
        LEFT JOIN (SELECT pull_request_id, COUNT(*) AS count, MAX(id) AS last_id
                   FROM narratives GROUP BY pull_request_id) n ON n.pull_request_id = p.id
        LEFT JOIN pr_search s ON {search_key} = p.id
        {clause}
        ORDER BY p.id
        """
    )
    return statement.bindparams(bindparam("ids", expanding=True)) if ids else statement


def reindex(store: Store, repository: str | None = None, *, indexed: Collection[int] = ()) -> ReindexStats:
    """Bring the search index up to date (all repositories, or one); drop orphan rows.

    ``indexed``: numbers of the repository's PRs this process has just written and indexed
    in the same transaction (`index_in_transaction`); their rows are not read again.
    """
    return _reindex(store, repository, None, indexed)


def index_pr(store: Store, repo: str, number: int) -> None:
    """Refresh one PR's search row (after sync, analysis or narration)."""
    _reindex(store, repo, number)


def _reindex(store: Store, repository: str | None, number: int | None, indexed: Collection[int] = ()) -> ReindexStats:
    if store.read_only:
        return ReindexStats(indexed=0, removed=0, current=0)  # searches what is indexed
    params: dict[str, Any] = {}
    if repository is not None:
        params["repository"] = repository
    if number is not None:
        params["number"] = number
    current = 0
    with store._engine.connect() as connection:
        if indexed and repository is not None and number is None:
            ids, current = _ids_to_check(connection, repository, set(indexed))
            rows: list[Row[Any]] = []
            for start in range(0, len(ids), _BATCH):
                batch = {"ids": ids[start : start + _BATCH]}
                rows += connection.execute(_stamp_query(store, None, None, True), batch).all()
        else:
            rows = list(connection.execute(_stamp_query(store, repository, number), params).all())
    stale: list[tuple[int, str]] = []
    for row in rows:
        stamp = _stamp(str(row[1]), row[2], row[3], row[4])
        if row[5] == stamp:
            current += 1
        else:
            stale.append((int(row[0]), stamp))
    for start in range(0, len(stale), _BATCH):
        _write_batch(store, stale[start : start + _BATCH])
    removed = _remove_orphans(store) if number is None else 0
    return ReindexStats(indexed=len(stale), removed=removed, current=current)


def _ids_to_check(connection: Connection, repository: str, indexed: set[int]) -> tuple[list[int], int]:
    """The repository's row ids whose stamps must be read (not in ``indexed``), and how many
    were left out. Only ids and numbers are read here: on SQLite the record hash lies past
    the record's file texts, so reading it for rows just indexed would walk all of them."""
    rows = connection.execute(
        text(
            "SELECT p.id, p.number FROM pull_requests p JOIN repositories r ON r.id = p.repository_id "
            "WHERE r.full_name = :repository ORDER BY p.id"
        ),
        {"repository": repository},
    ).all()
    ids = [int(row[0]) for row in rows if int(row[1]) not in indexed]
    return ids, len(rows) - len(ids)


def _load_batch(
    connection: Connection, ids: list[int], known: Mapping[int, PullRequest | RecordText]
) -> dict[int, tuple[PullRequest | RecordText | str, str | None, list[str]]]:
    """Per id: the record (the caller's object or record text when ``known`` has it, else the
    stored JSON), the facts JSON and the narratives' JSON."""
    found: dict[int, tuple[PullRequest | RecordText | str, str | None, list[str]]] = {}
    # The caller's records are what was just written: reading back and re-parsing the stored
    # JSON would cost more than the write itself. Stored JSON lacks the files' full texts
    # (see file_texts), which a search document never reads.
    record = "NULL" if all(pr_id in known for pr_id in ids) else "p.record"
    rows = connection.execute(
        text(
            f"SELECT p.id, {record}, f.body FROM pull_requests p "
            "LEFT JOIN facts f ON f.pull_request_id = p.id WHERE p.id IN :ids"
        ).bindparams(bindparam("ids", expanding=True)),
        {"ids": ids},
    )
    for row in rows:
        pr_id = int(row[0])
        found[pr_id] = (known[pr_id] if pr_id in known else str(row[1]), row[2], [])
    narrative_rows = connection.execute(
        text("SELECT pull_request_id, body FROM narratives WHERE pull_request_id IN :ids ORDER BY id").bindparams(
            bindparam("ids", expanding=True)
        ),
        {"ids": ids},
    )
    for row in narrative_rows:
        if int(row[0]) in found:
            found[int(row[0])][2].append(str(row[1]))
    return found


def index_in_transaction(
    store: Store,
    connection: Connection,
    pull_request_ids: Sequence[int],
    written: Mapping[int, tuple[PullRequest, str]] | None = None,
    reports: Mapping[int, Sequence[str]] | None = None,
    texts: Mapping[int, tuple[str, RecordText]] | None = None,
) -> None:
    """Refresh these PRs' search rows inside the caller's write transaction, so the rows and
    what they index are committed together (a process killed after the commit leaves no PR
    out of search, or indexed without its facts).

    ``written``: by row id, the record just written and its ``record_hash``, when the caller
    has them (then neither is read back); ``reports``: by row id, the `facts_report` of facts
    just written (then they are not parsed again); ``texts``: by row id, a ``record_hash``
    and the `record_text` of the record of that hash (used while it is still the stored
    record: then the record is not read back either)."""
    known = written or {}
    records: dict[int, PullRequest | RecordText] = {pr_id: record for pr_id, (record, _hash) in known.items()}
    texts = texts or {}
    for start in range(0, len(pull_request_ids), _BATCH):
        ids = list(pull_request_ids[start : start + _BATCH])
        all_known = all(pr_id in known for pr_id in ids)
        query = _stamp_query(store, None, None, True, record_hash=not all_known)
        rows = connection.execute(query, {"ids": ids}).all()
        stale = []
        for r in rows:
            pr_id = int(r[0])
            record_hash = known[pr_id][1] if all_known else str(r[1])
            stamp = _stamp(record_hash, r[2], r[3], r[4])
            if r[5] != stamp:
                stale.append((pr_id, stamp))
                made = texts.get(pr_id)
                if made is not None and pr_id not in records and made[0] == record_hash:
                    records[pr_id] = made[1]
        if stale:
            _write_rows(store, connection, stale, records, reports)


def _write_batch(store: Store, batch: list[tuple[int, str]]) -> None:
    with store._write() as connection:
        lock_pull_requests(connection, [pr_id for pr_id, _stamp_value in batch])  # indexers take turns (PostgreSQL)
        _write_rows(store, connection, batch)


def _write_rows(
    store: Store,
    connection: Connection,
    batch: list[tuple[int, str]],
    known: Mapping[int, PullRequest | RecordText] | None = None,
    reports: Mapping[int, Sequence[str]] | None = None,
) -> None:
    ids = [pr_id for pr_id, _stamp_value in batch]
    loaded = _load_batch(connection, ids, known or {})
    values: list[dict[str, Any]] = []
    for pr_id, stamp in batch:
        if pr_id not in loaded:
            continue
        record, facts_body, narrative_bodies = loaded[pr_id]
        report = None if reports is None else reports.get(pr_id)
        document = build_document(
            PullRequest.model_validate_json(record) if isinstance(record, str) else record,
            report if report is not None or facts_body is None else parse_facts(facts_body),
            parse_narratives(narrative_bodies),
        )
        values.append(
            {
                "id": pr_id,
                "stamp": stamp,
                "title": document.title,
                "body": document.body,
                "comments": document.comments,
                "report": document.report,
            }
        )
    _replace_rows(store, connection, ids, values)


def _replace_rows(store: Store, connection: Connection, ids: list[int], values: Iterable[dict[str, Any]]) -> None:
    rows = list(values)
    key = "rowid" if _is_sqlite(store) else "pull_request_id"
    connection.execute(
        text(f"DELETE FROM pr_search WHERE {key} IN :ids").bindparams(bindparam("ids", expanding=True)),
        {"ids": ids},
    )
    if rows:
        connection.execute(
            text(
                f"INSERT INTO pr_search ({key}, stamp, title, body, comments, report) "
                "VALUES (:id, :stamp, :title, :body, :comments, :report)"
            ),
            rows,
        )


def _remove_orphans(store: Store) -> int:
    if not _is_sqlite(store):
        return 0  # PostgreSQL rows go with their PR (ON DELETE CASCADE)
    with store._write() as connection:
        result = connection.execute(text("DELETE FROM pr_search WHERE rowid NOT IN (SELECT id FROM pull_requests)"))
        return int(result.rowcount or 0)


# --- querying -----------------------------------------------------------------------------


def search(
    store: Store, query: str, *, repository: str | None = None, limit: int = 20, offset: int = 0
) -> list[SearchHit]:
    """PRs matching every word of `query`; [] when the query has no words.

    Order: PRs whose *title* holds every word first, then the others; within each group the
    most recently stored first. Both groups are index walks that stop after ``limit`` rows,
    so a page costs the same for a rare word and for one in every PR (FTS5's bm25 needs a pass
    over every match of every word, ~10-20 ms for a common word at 100,000 PRs).
    """
    if _is_sqlite(store):
        return _search_sqlite(store, query, repository, limit, offset)
    return _search_postgres(store, query, repository, limit, offset)


def _hits(rows: Iterable[Any]) -> list[SearchHit]:
    return [
        SearchHit(
            repository=str(row.full_name),
            number=int(row.number),
            title=str(row.title),
            state=str(row.state),
            verdict=row.verdict,
            merged_at=row.merged_at,
            created_at=row.created_at,
            snippet=unsegment(str(row.snip or "")),
        )
        for row in rows
    ]


def _search_sqlite(store: Store, query: str, repository: str | None, limit: int, offset: int) -> list[SearchHit]:
    match = fts5_query(query)
    if match is None:
        return []
    in_title = f"title : ({match})"
    elsewhere = f"({match}) NOT ({in_title})"
    repo_clause = "AND r.full_name = :repository" if repository is not None else ""
    params: dict[str, Any] = {"repository": repository} if repository is not None else {}
    page = text(_SQLITE_PAGE.format(repo_clause=repo_clause))
    with store._engine.connect() as connection:
        first = connection.execute(page, {**params, "match": in_title, "limit": limit, "offset": offset}).all()
        if len(first) == limit:
            return _hits(first)
        # The title group ends on this page (or before it): fill up from the other group.
        if first or offset == 0:
            title_total = offset + len(first)
        else:
            count = text(_SQLITE_COUNT.format(repo_clause=repo_clause))
            title_total = int(connection.execute(count, {**params, "match": in_title}).scalar_one())
        rest = connection.execute(
            page,
            {**params, "match": elsewhere, "limit": limit - len(first), "offset": max(0, offset - title_total)},
        ).all()
    return _hits([*first, *rest])


def _search_postgres(store: Store, query: str, repository: str | None, limit: int, offset: int) -> list[SearchHit]:
    terms = postgres_terms(query)
    if not terms:
        return []
    # Every word must match; a word of several CJK characters must match as a phrase
    # (phraseto_tsquery: '修' <-> '复'), as in the FTS5 query.
    tsquery = " && ".join(f"phraseto_tsquery('simple', :term{i})" for i in range(len(terms)))
    params: dict[str, Any] = {f"term{i}": term for i, term in enumerate(terms)}
    params.update(limit=limit, offset=offset)
    repo_clause = ""
    if repository is not None:
        repo_clause = "AND r.full_name = :repository"
        params["repository"] = repository
    statement = text(_POSTGRES_SEARCH.format(tsquery=tsquery, repo_clause=repo_clause))
    with store._engine.connect() as connection:
        return _hits(connection.execute(statement, params).all())


# snippet() is only computed for the rows returned (OFFSET skips before result columns).
_SQLITE_PAGE = """
SELECT r.full_name, p.number, p.title, p.state, p.merged_at, p.created_at, f.verdict,
       snippet(pr_search, -1, char(2), char(3), '…', 16) AS snip
FROM pr_search
JOIN pull_requests p ON p.id = pr_search.rowid
JOIN repositories r ON r.id = p.repository_id
LEFT JOIN facts f ON f.pull_request_id = p.id
WHERE pr_search MATCH :match {repo_clause}
ORDER BY pr_search.rowid DESC
LIMIT :limit OFFSET :offset
"""

_SQLITE_COUNT = """
SELECT count(*) FROM pr_search
JOIN pull_requests p ON p.id = pr_search.rowid
JOIN repositories r ON r.id = p.repository_id
WHERE pr_search MATCH :match {repo_clause}
"""

_POSTGRES_SEARCH = """
SELECT r.full_name, p.number, p.title, p.state, p.merged_at, p.created_at, f.verdict,
       ts_headline('simple', s.title || ' ' || s.body || ' ' || s.comments || ' ' || s.report, q.query,
                   'StartSel=' || chr(2) || ', StopSel=' || chr(3) || ', MaxWords=30, MinWords=10') AS snip
FROM pr_search s
CROSS JOIN (SELECT {tsquery} AS query) q
JOIN pull_requests p ON p.id = s.pull_request_id
JOIN repositories r ON r.id = p.repository_id
LEFT JOIN facts f ON f.pull_request_id = p.id
WHERE s.document @@ q.query {repo_clause}
ORDER BY to_tsvector('simple', s.title) @@ q.query DESC, p.id DESC
LIMIT :limit OFFSET :offset
"""
