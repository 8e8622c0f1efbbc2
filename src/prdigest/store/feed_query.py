"""One page of a repository's reading feed: filtered, paged, newest first.

The feed walks ``ix_pull_requests_feed_order`` (migration 0002) newest first and joins the
stored verdict and the cached feed prose; it never loads PR records.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from sqlalchemy import text

from prdigest.store.read_models import repository_id
from prdigest.store.store import Store


@dataclass(frozen=True)
class FeedFilter:
    """Which PRs a feed page shows; None (or empty) keeps every PR. Dates are whole UTC days."""

    verdict: str | None = None
    risk: str | None = None
    module: str | None = None
    author: str | None = None
    since: date | None = None
    until: date | None = None


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
    verdict: str | None
    score: float | None
    reason: str | None
    feed_title: str | None
    feed_paragraph: str | None
    labels: tuple[tuple[str, str], ...]  # (kind, value) pairs, sorted: kind is "risk" or "module"
    one_line: str | None = None  # the narrative's one-line summary, in the reader's language


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
       (SELECT {label_array} FROM fact_labels l WHERE l.pull_request_id = p.id) AS labels,
       coalesce({brief_line}, {full_line}) AS one_line
FROM (
    SELECT p.id FROM pull_requests p
    WHERE p.repository_id = (SELECT id FROM repositories WHERE full_name = :repository) {filters}
    ORDER BY coalesce(p.merged_at, p.created_at) DESC, p.number DESC
    LIMIT :limit OFFSET :offset
) page
JOIN pull_requests p ON p.id = page.id
LEFT JOIN facts f ON f.pull_request_id = p.id
LEFT JOIN narratives nb ON nb.id = ({shown_brief})
LEFT JOIN narratives nf ON nf.id = ({shown_full})
ORDER BY coalesce(p.merged_at, p.created_at) DESC, p.number DESC
"""


# The one rule of `narrative_store.shown_narrative`: the newest successful LLM narrative of the
# configured model (:model, NULL for none), else the newest offline one.
_SHOWN = (
    "SELECT n.id FROM narratives n WHERE n.pull_request_id = p.id AND n.lang = :lang AND n.length = '{length}'"
    " AND (n.narrator = 'extractive' OR (n.narrator = 'llm' AND n.model = :model))"
    " ORDER BY CASE WHEN n.narrator = 'llm' THEN 0 ELSE 1 END, n.id DESC LIMIT 1"
)


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


def _labels(value: object) -> tuple[tuple[str, str], ...]:
    if not value:
        return ()
    pairs = json.loads(str(value))
    return tuple(sorted((str(kind), str(label)) for kind, label in pairs if kind is not None and label is not None))


def _first_reason(dialect: str) -> str:
    """The verdict's first reason (shown when a row has no narrated paragraph yet)."""
    if dialect == "postgresql":
        return "(CAST(f.body AS JSON) -> 'verdict' -> 'reasons' -> 0 ->> 'detail')"
    return "json_extract(f.body, '$.verdict.reasons[0].detail')"


def _feed_sql(dialect: str, filters: FeedFilter, params: dict[str, Any]) -> str:
    params.setdefault("model", None)
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
        brief_line=_json_field(dialect, "nb", "one_line"),
        full_line=_json_field(dialect, "nf", "one_line"),
        reason=_first_reason(dialect),
        shown_brief=_SHOWN.format(length="brief"),
        shown_full=_SHOWN.format(length="full"),
        label_array=_LABEL_ARRAY[dialect == "postgresql"],
        filters="".join(f" AND {clause}" for clause in clauses),
    )


def feed_page(
    store: Store,
    repository: str,
    filters: FeedFilter,
    lang: str,
    *,
    limit: int,
    offset: int,
    model: str | None = None,
) -> list[FeedRow]:
    """One page of the feed (``limit`` rows from ``offset``), newest first, with each row's labels;
    the prose is the configured `model`'s newest successful narrative, else the offline one.

    Raises NotFound for an unknown repository.
    """
    params: dict[str, Any] = {
        "lang": lang,
        "limit": limit,
        "offset": offset,
        "repository": repository,
        "model": model,
    }
    engine = store._engine
    sql = _feed_sql(engine.dialect.name, filters, params)
    with engine.connect() as connection:
        rows = connection.execute(text(sql), params).all()
        if not rows:
            repository_id(connection, repository)  # NotFound for an unknown repository
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
            verdict=None if r[8] is None else str(r[8]),
            score=None if r[9] is None else float(r[9]),
            reason=None if r[11] is not None or not r[12] else str(r[12]),
            feed_title=r[10],
            feed_paragraph=r[11],
            labels=_labels(r[13]),
            one_line=r[14],
        )
        for r in rows
    ]


def _parse_datetime(value: object) -> datetime | None:
    # SQLite returns coalesce() of two DateTime columns as text.
    if value is None:
        return None
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return None
