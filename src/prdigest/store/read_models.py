"""The read queries behind the web pages besides the feed: repositories, facets, report stamps.

Each returns plain frozen dataclasses; the web turns them into its response models.
The feed page itself is `prdigest.store.feed_query`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, func, select, text

from prdigest.errors import NotFound
from prdigest.store.schema import fact_labels, facts, pull_requests, repositories
from prdigest.store.store import Store

FEED_ORDER = func.coalesce(pull_requests.c.merged_at, pull_requests.c.created_at)


@dataclass(frozen=True)
class RepositoryRow:
    repository: str
    pull_requests: int
    analyzed: int
    latest: datetime | None


@dataclass(frozen=True)
class LabelCount:
    value: str
    count: int


@dataclass(frozen=True)
class Facets:
    """The risk tags and modules used in a repository, most frequent first (then by value)."""

    risks: tuple[LabelCount, ...] = ()
    modules: tuple[LabelCount, ...] = ()


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
    with store._engine.connect() as connection:
        return [RepositoryRow(str(r[0]), int(r[1]), int(r[2]), r[3]) for r in connection.execute(query)]


def facets(store: Store, repository: str) -> Facets:
    """Risk tags and modules used in a repository, most frequent first (for the filter form)."""
    query = (
        select(fact_labels.c.kind, fact_labels.c.value, func.count())
        .join(pull_requests, pull_requests.c.id == fact_labels.c.pull_request_id)
        .group_by(fact_labels.c.kind, fact_labels.c.value)
        .order_by(func.count().desc(), fact_labels.c.value)
    )
    risks: list[LabelCount] = []
    modules: list[LabelCount] = []
    with store._engine.connect() as connection:
        query = query.where(pull_requests.c.repository_id == repository_id(connection, repository))
        for kind, value, count in connection.execute(query):
            target = risks if kind == "risk" else modules
            target.append(LabelCount(str(value), int(count)))
    return Facets(tuple(risks), tuple(modules))


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
    with store._engine.connect() as connection:
        row = connection.execute(_REPORT_STAMP_SQL, {"repository": repository, "number": number}).first()
    if row is None:
        raise NotFound(f"no pull request {repository}#{number} in the database")
    return ReportStamp(int(row[0]), str(row[1]), row[2], f"{row[3]}.{row[4]}:{row[5]}.{row[6]}")


def facets_by_repository(store: Store) -> dict[str, Facets]:
    """`facets` of every repository in one pass (the background refresher's query)."""
    query = (
        select(repositories.c.full_name, fact_labels.c.kind, fact_labels.c.value, func.count())
        .select_from(fact_labels)
        .join(pull_requests, pull_requests.c.id == fact_labels.c.pull_request_id)
        .join(repositories, repositories.c.id == pull_requests.c.repository_id)
        .group_by(repositories.c.full_name, fact_labels.c.kind, fact_labels.c.value)
    )
    found: dict[str, tuple[list[LabelCount], list[LabelCount]]] = {}
    with store._engine.connect() as connection:
        rows = connection.execute(query).all()
    for name, kind, value, count in sorted(rows, key=lambda r: (-int(r[3]), str(r[2]))):
        risks, modules = found.setdefault(str(name), ([], []))
        (risks if kind == "risk" else modules).append(LabelCount(str(value), int(count)))
    return {name: Facets(tuple(risks), tuple(modules)) for name, (risks, modules) in found.items()}
