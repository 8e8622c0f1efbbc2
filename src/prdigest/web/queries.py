"""The read queries behind the pages: each page is one indexed query plus small lookups.

The feed walks ``ix_pull_requests_feed_order`` (migration 0002) newest first and joins the
stored verdict and the cached feed prose; it never loads PR records.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from sqlalchemy import Connection, func, select, text

from prdigest.errors import NotFound
from prdigest.store.schema import fact_labels, facts, pull_requests, repositories
from prdigest.store.store import Store
from prdigest.web.schemas import FacetValue, FeedFilters, Verdict

VERDICTS: tuple[Verdict, ...] = ("read-in-depth", "quick-read", "skip")
FEED_ORDER = func.coalesce(pull_requests.c.merged_at, pull_requests.c.created_at)


@dataclass(frozen=True)
class FeedRow:
    pull_request_id: int
    number: int
    title: str
    state: str
    author: str | None
    date: datetime | None
    additions: int
    deletions: int
    verdict: Verdict | None
    score: float | None
    reason: str | None
    feed_title: str | None
    feed_paragraph: str | None


@dataclass(frozen=True)
class RepositoryRow:
    repository: str
    pull_requests: int
    analyzed: int
    latest: datetime | None


def as_verdict(value: object) -> Verdict | None:
    for verdict in VERDICTS:
        if value == verdict:
            return verdict
    return None


def repository_id(connection: Connection, repository: str) -> int:
    found = connection.execute(
        select(repositories.c.id).where(repositories.c.full_name == repository)
    ).scalar_one_or_none()
    if found is None:
        raise NotFound(f"no repository {repository} in the database")
    return int(found)


def list_repositories(store: Store) -> list[RepositoryRow]:
    query = (
        select(
            repositories.c.full_name,
            func.count(pull_requests.c.id),
            func.count(facts.c.pull_request_id),
            func.max(FEED_ORDER),
        )
        .select_from(repositories)
        .outerjoin(pull_requests, pull_requests.c.repository_id == repositories.c.id)
        .outerjoin(facts, facts.c.pull_request_id == pull_requests.c.id)
        .group_by(repositories.c.full_name)
        .order_by(repositories.c.full_name)
    )
    with store.engine.connect() as connection:
        return [RepositoryRow(str(r[0]), int(r[1]), int(r[2]), r[3]) for r in connection.execute(query)]


def _day_start(value: date) -> datetime:
    return datetime.combine(value, time.min)


# Plain SQL on purpose: building this statement through the ORM expression layer cost more
# than running it. Only fixed fragments are joined in; every value is a bound parameter.
# The inner query pages over ids alone (an index walk of ix_pull_requests_feed_order, filters
# as EXISTS probes on covering indexes), so a deep OFFSET skips index entries, not joined rows;
# the outer query joins verdicts and prose for the page's rows only.
_FEED_SQL = """
SELECT p.id, p.number, p.title, p.state, p.author, coalesce(p.merged_at, p.created_at) AS date,
       p.additions, p.deletions, f.verdict, f.score,
       coalesce({brief_title}, {full_title}) AS feed_title,
       coalesce({brief_para}, {full_para}) AS feed_paragraph,
       {reason} AS reason,
       (SELECT {label_array} FROM fact_labels l WHERE l.pull_request_id = p.id) AS labels
FROM (
    SELECT p.id FROM pull_requests p
    WHERE p.repository_id = (SELECT id FROM repositories WHERE full_name = :repository) {filters}
    ORDER BY coalesce(p.merged_at, p.created_at) DESC, p.number DESC
    LIMIT :limit OFFSET :offset
) page
JOIN pull_requests p ON p.id = page.id
LEFT JOIN facts f ON f.pull_request_id = p.id
LEFT JOIN narratives nb ON nb.pull_request_id = p.id AND nb.lang = :lang AND nb.length = 'brief'
LEFT JOIN narratives nf ON nf.pull_request_id = p.id AND nf.lang = :lang AND nf.length = 'full'
ORDER BY coalesce(p.merged_at, p.created_at) DESC, p.number DESC
"""


def _bound_time(dialect: str, value: datetime) -> datetime | str:
    # SQLite keeps DateTime as ISO text; bind text, not the deprecated sqlite3 datetime adapter.
    return value.isoformat(" ") if dialect == "sqlite" else value


def _json_field(dialect: str, alias: str, key: str) -> str:
    if dialect == "postgresql":
        return f"(CAST({alias}.body AS JSON) ->> '{key}')"
    return f"json_extract({alias}.body, '$.{key}')"


# A row's labels as one JSON array of [kind, value] pairs: one query for the page, not one
# more round trip and a row per label.
_LABEL_ARRAY = {
    False: "json_group_array(json_array(l.kind, l.value))",
    True: "CAST(json_agg(json_build_array(l.kind, l.value)) AS TEXT)",
}


def _labels(value: object) -> list[tuple[str, str]]:
    if not value:
        return []
    pairs = json.loads(str(value))
    return sorted((str(kind), str(label)) for kind, label in pairs if kind is not None and label is not None)


def _first_reason(dialect: str) -> str:
    """The verdict's first reason (shown when a row has no narrated paragraph yet)."""
    if dialect == "postgresql":
        return "(CAST(f.body AS JSON) -> 'verdict' -> 'reasons' -> 0 ->> 'detail')"
    return "json_extract(f.body, '$.verdict.reasons[0].detail')"


def _feed_sql(dialect: str, filters: FeedFilters, params: dict[str, Any]) -> str:
    clauses: list[str] = []
    if filters.verdict is not None:
        clauses.append("EXISTS (SELECT 1 FROM facts v WHERE v.pull_request_id = p.id AND v.verdict = :verdict)")
        params["verdict"] = filters.verdict
    for kind, value in (("risk", filters.risk), ("module", filters.module)):
        if value:
            clauses.append(
                "EXISTS (SELECT 1 FROM fact_labels l WHERE l.pull_request_id = p.id "
                f"AND l.kind = '{kind}' AND l.value = :{kind})"
            )
            params[kind] = value
    if filters.author:
        clauses.append("p.author = :author")
        params["author"] = filters.author
    if filters.since is not None:
        clauses.append("coalesce(p.merged_at, p.created_at) >= :since")
        params["since"] = _bound_time(dialect, _day_start(filters.since))
    if filters.until is not None:
        clauses.append("coalesce(p.merged_at, p.created_at) < :until")
        params["until"] = _bound_time(dialect, _day_start(filters.until) + timedelta(days=1))
    return _FEED_SQL.format(
        brief_title=_json_field(dialect, "nb", "feed_title"),
        full_title=_json_field(dialect, "nf", "feed_title"),
        brief_para=_json_field(dialect, "nb", "feed_paragraph"),
        full_para=_json_field(dialect, "nf", "feed_paragraph"),
        reason=_first_reason(dialect),
        label_array=_LABEL_ARRAY[dialect == "postgresql"],
        filters="".join(f" AND {clause}" for clause in clauses),
    )


def feed_page(
    store: Store, repository: str, filters: FeedFilters, lang: str, *, limit: int, offset: int
) -> tuple[list[FeedRow], dict[int, list[tuple[str, str]]]]:
    """One page of the feed (``limit`` rows from ``offset``) and the labels of those rows."""
    params: dict[str, Any] = {"lang": lang, "limit": limit, "offset": offset, "repository": repository}
    sql = _feed_sql(store.engine.dialect.name, filters, params)
    with store.engine.connect() as connection:
        rows = connection.execute(text(sql), params).all()
        if not rows:
            repository_id(connection, repository)  # NotFound for an unknown repository
    labels = {int(r[0]): _labels(r[13]) for r in rows}
    return [
        FeedRow(
            pull_request_id=int(r[0]),
            number=int(r[1]),
            title=str(r[2]),
            state=str(r[3]),
            author=r[4],
            date=r[5] if isinstance(r[5], datetime) else _parse_datetime(r[5]),
            additions=int(r[6]),
            deletions=int(r[7]),
            verdict=as_verdict(r[8]),
            score=None if r[9] is None else float(r[9]),
            reason=None if r[11] is not None or not r[12] else str(r[12]),
            feed_title=r[10],
            feed_paragraph=r[11],
        )
        for r in rows
    ], labels


def _parse_datetime(value: object) -> datetime | None:
    # SQLite returns coalesce() of two DateTime columns as text.
    if value is None:
        return None
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return None


def facets(store: Store, repository: str) -> tuple[list[FacetValue], list[FacetValue]]:
    """Risk tags and modules used in a repository, most frequent first (for the filter form)."""
    query = (
        select(fact_labels.c.kind, fact_labels.c.value, func.count())
        .join(pull_requests, pull_requests.c.id == fact_labels.c.pull_request_id)
        .group_by(fact_labels.c.kind, fact_labels.c.value)
        .order_by(func.count().desc(), fact_labels.c.value)
    )
    risks: list[FacetValue] = []
    modules: list[FacetValue] = []
    with store.engine.connect() as connection:
        query = query.where(pull_requests.c.repository_id == repository_id(connection, repository))
        for kind, value, count in connection.execute(query):
            target = risks if kind == "risk" else modules
            target.append(FacetValue(value=str(value), count=int(count)))
    return risks, modules


@dataclass(frozen=True)
class ReportStamp:
    """What a rendered report depends on: any change gives a new cache key."""

    pull_request_id: int
    record_hash: str
    facts_key: str | None
    narratives: str


_REPORT_STAMP_SQL = text(
    """
    SELECT p.id, p.record_hash, f.cache_key,
           (SELECT count(*) FROM narratives n WHERE n.pull_request_id = p.id),
           (SELECT max(n.id) FROM narratives n WHERE n.pull_request_id = p.id),
           (SELECT count(*) FROM pr_links l WHERE l.target_repository = :repository AND l.target_number = :number),
           (SELECT max(l.id) FROM pr_links l WHERE l.target_repository = :repository AND l.target_number = :number)
    FROM pull_requests p
    JOIN repositories r ON r.id = p.repository_id
    LEFT JOIN facts f ON f.pull_request_id = p.id
    WHERE r.full_name = :repository AND p.number = :number
    """
)


def report_stamp(store: Store, repository: str, number: int) -> ReportStamp:
    """One indexed query: the PR's record hash, facts key, narratives and incoming links."""
    with store.engine.connect() as connection:
        row = connection.execute(_REPORT_STAMP_SQL, {"repository": repository, "number": number}).first()
    if row is None:
        raise NotFound(f"no pull request {repository}#{number} in the database")
    return ReportStamp(int(row[0]), str(row[1]), row[2], f"{row[3]}.{row[4]}:{row[5]}.{row[6]}")


Facets = tuple[list[FacetValue], list[FacetValue]]


def facets_by_repository(store: Store) -> dict[str, Facets]:
    """`facets` of every repository in one pass (the background refresher's query)."""
    query = (
        select(repositories.c.full_name, fact_labels.c.kind, fact_labels.c.value, func.count())
        .select_from(fact_labels)
        .join(pull_requests, pull_requests.c.id == fact_labels.c.pull_request_id)
        .join(repositories, repositories.c.id == pull_requests.c.repository_id)
        .group_by(repositories.c.full_name, fact_labels.c.kind, fact_labels.c.value)
    )
    found: dict[str, Facets] = {}
    with store.engine.connect() as connection:
        rows = connection.execute(query).all()
    for name, kind, value, count in sorted(rows, key=lambda r: (-int(r[3]), str(r[2]))):
        risks, modules = found.setdefault(str(name), ([], []))
        (risks if kind == "risk" else modules).append(FacetValue(value=str(value), count=int(count)))
    return found
