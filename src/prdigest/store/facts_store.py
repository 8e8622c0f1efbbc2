"""Facts, their searchable labels, and the reference graph between PRs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, and_, bindparam, delete, insert, select

from prdigest.models.facts import Facts
from prdigest.models.ledger import canonical_package
from prdigest.models.pullrequest import PullRequest
from prdigest.store import search_store
from prdigest.store.file_texts import load_records
from prdigest.store.links import Link
from prdigest.store.schema import dependency_changes, fact_labels, facts, pr_links, pull_requests, repositories
from prdigest.store.search_text import RecordText, facts_report, record_text
from prdigest.store.store import Store
from prdigest.store.upsert import lock_pull_requests


@dataclass(frozen=True)
class PendingAnalysis:
    pull_request_id: int
    repository: str
    number: int
    record_hash: str
    cache_key: str | None  # of the stored facts, None when never analyzed


def analysis_states(store: Store, repository: str | None = None, number: int | None = None) -> list[PendingAnalysis]:
    """Every PR (or one) with its record hash and the cache key of its stored facts (one query)."""
    query = _states()
    if repository is not None and number is not None:  # one PR, asked for per PR: built once
        query, parameters = _STATE_OF_ONE, {"repository": repository, "number": number}
    else:
        parameters = {}
        if repository is not None:
            query = query.where(repositories.c.full_name == repository)
        if number is not None:
            query = query.where(pull_requests.c.number == number)
    with store._engine.connect() as connection:
        return [
            PendingAnalysis(int(r[0]), str(r[1]), int(r[2]), str(r[3]), None if r[4] is None else str(r[4]))
            for r in connection.execute(query, parameters)
        ]


def _states() -> Select[Any]:
    return (
        select(
            pull_requests.c.id,
            repositories.c.full_name,
            pull_requests.c.number,
            pull_requests.c.record_hash,
            facts.c.cache_key,
        )
        .join(repositories, repositories.c.id == pull_requests.c.repository_id)
        .outerjoin(facts, facts.c.pull_request_id == pull_requests.c.id)
        .order_by(pull_requests.c.id)
    )


_STATE_OF_ONE = (
    _states()
    .where(repositories.c.full_name == bindparam("repository"))
    .where(pull_requests.c.number == bindparam("number"))
)


@dataclass(frozen=True)
class FactsRow:
    """Everything `save_facts_rows` writes for one PR: plain values, cheap to send between processes."""

    pull_request_id: int
    cache_key: str
    verdict: str
    score: float
    body: str  # Facts.model_dump_json()
    labels: tuple[tuple[str, str], ...]  # (kind, value), sorted
    links: tuple[tuple[str, int, str, str, str, str], ...]  # repository, number, kind, relation, where, evidence
    # the dependency ledger rows: package, path, before, after, kinds, scope, condition, replaced_by
    dependencies: tuple[tuple[str, str, str | None, str | None, str, str, str | None, str | None], ...] = ()
    report: tuple[str, ...] | None = None  # `search_text.facts_report`: the search row, without parsing ``body``
    # `search_text.record_text` of the analyzed record: the search row without reading the record back
    record_text: RecordText | None = None


def facts_row(pull_request_id: int, result: Facts, cache_key: str, record: PullRequest | None = None) -> FactsRow:
    """The row of facts to store; ``record``: the analyzed record as stored (its search text is
    then made here, in the analysis worker)."""
    labels = {("risk", tag.tag) for tag in result.risks.tags} | {("module", module) for module in result.files.modules}
    return FactsRow(
        pull_request_id=pull_request_id,
        cache_key=cache_key,
        verdict=result.verdict.level.value,
        score=result.verdict.score,
        body=result.model_dump_json(),
        labels=tuple(sorted(labels)),
        links=tuple(
            (ref.repository, ref.number, ref.target_kind, ref.relation, ref.where, ref.evidence)
            for ref in result.references.references
        ),
        dependencies=tuple(
            (
                canonical_package(c.package),
                c.path,
                c.before,
                c.after,
                ",".join(c.kinds),
                c.scope,
                c.condition,
                c.replaced_by,
            )
            for c in result.dependencies.changes
        ),
        report=facts_report(result),
        record_text=None if record is None else record_text(record),
    )


def save_facts(store: Store, pull_request_id: int, result: Facts, cache_key: str) -> None:
    """Replace a PR's facts, labels and outgoing links in one transaction."""
    save_facts_rows(store, [facts_row(pull_request_id, result, cache_key)])


def save_facts_rows(store: Store, rows: Sequence[FactsRow], record_hashes: Mapping[int, str] | None = None) -> None:
    """Replace the facts, labels and outgoing links of several PRs in one transaction.

    ``record_hashes``: by row id, the ``record_hash`` of the record each row's `record_text`
    was made from (then that text goes into the search row while the record is unchanged)."""
    if not rows:
        return
    if store.read_only:
        return  # a read command on a read-only database: the facts were computed, not cached
    latest = {row.pull_request_id: row for row in rows}  # a PR given twice: the last one wins
    ids = list(latest)
    # One transaction: a PR's facts, labels and links are replaced together or not at all.
    with store._write() as connection:
        lock_pull_requests(connection, ids)  # two analyses of one PR take turns (PostgreSQL)
        # A PR deleted since it was read (a concurrent `delete_repository`) gets no facts.
        present = set(connection.execute(select(pull_requests.c.id).where(pull_requests.c.id.in_(ids))).scalars())
        latest = {pr_id: row for pr_id, row in latest.items() if pr_id in present}
        ids = list(latest)
        if not ids:
            return
        connection.execute(delete(facts).where(facts.c.pull_request_id.in_(ids)))
        connection.execute(
            insert(facts),
            [
                {
                    "pull_request_id": row.pull_request_id,
                    "cache_key": row.cache_key,
                    "verdict": row.verdict,
                    "score": row.score,
                    "body": row.body,
                }
                for row in latest.values()
            ],
        )
        connection.execute(delete(fact_labels).where(fact_labels.c.pull_request_id.in_(ids)))
        labels = [
            {"pull_request_id": row.pull_request_id, "kind": kind, "value": value}
            for row in latest.values()
            for kind, value in row.labels
        ]
        if labels:
            connection.execute(insert(fact_labels), labels)
        connection.execute(delete(pr_links).where(pr_links.c.pull_request_id.in_(ids)))
        links = [
            {
                "pull_request_id": row.pull_request_id,
                "target_repository": repository,
                "target_number": number,
                "target_kind": kind,
                "relation": relation,
                "found_in": where,
                "evidence": evidence,
            }
            for row in latest.values()
            for repository, number, kind, relation, where, evidence in row.links
        ]
        if links:
            connection.execute(insert(pr_links), links)
        reports = {pr_id: row.report for pr_id, row in latest.items() if row.report is not None}
        hashes = record_hashes or {}
        texts = {
            pr_id: (hashes[pr_id], row.record_text)
            for pr_id, row in latest.items()
            if row.record_text is not None and pr_id in hashes
        }
        search_store.index_in_transaction(store, connection, ids, reports=reports, texts=texts)
        connection.execute(delete(dependency_changes).where(dependency_changes.c.pull_request_id.in_(ids)))
        ledger = [
            {
                "pull_request_id": row.pull_request_id,
                "position": position,
                "package": package,
                "path": path,
                "before": before,
                "after": after,
                "kinds": kinds,
                "scope": scope,
                "condition": condition,
                "replaced_by": replaced_by,
            }
            for row in latest.values()
            for position, (package, path, before, after, kinds, scope, condition, replaced_by) in enumerate(
                row.dependencies
            )
        ]
        if ledger:
            connection.execute(insert(dependency_changes), ledger)


def stored_records(store: Store, pull_request_ids: Sequence[int]) -> dict[int, PullRequest]:
    """The record of each given PR, by id (ids not stored are left out)."""
    if not pull_request_ids:
        return {}
    with store._engine.connect() as connection:
        rows = connection.execute(
            select(pull_requests.c.id, pull_requests.c.record, pull_requests.c.texts).where(
                pull_requests.c.id.in_(list(pull_request_ids))
            )
        ).all()
        records = load_records(connection, [(str(r[1]), r[2]) for r in rows])
    return {int(r[0]): record for r, record in zip(rows, records, strict=True)}


def get_facts(store: Store, repository: str, number: int) -> Facts | None:
    with store._engine.connect() as connection:
        row = connection.execute(_FACTS_OF_ONE, {"repository": repository, "number": number}).first()
    return None if row is None else Facts.model_validate_json(row[0])


# Built once (building a statement costs more than executing it; reports and publishing ask per PR).
_FACTS_OF_ONE = (
    select(facts.c.body)
    .join(pull_requests, pull_requests.c.id == facts.c.pull_request_id)
    .join(repositories, repositories.c.id == pull_requests.c.repository_id)
    .where(and_(repositories.c.full_name == bindparam("repository"), pull_requests.c.number == bindparam("number")))
)


def link_query() -> Select[Any]:
    return (
        select(
            repositories.c.full_name,
            pull_requests.c.number,
            pull_requests.c.title,
            pr_links.c.target_repository,
            pr_links.c.target_number,
            pr_links.c.target_kind,
            pr_links.c.relation,
            pr_links.c.found_in,
            pr_links.c.evidence,
        )
        .join(pull_requests, pull_requests.c.id == pr_links.c.pull_request_id)
        .join(repositories, repositories.c.id == pull_requests.c.repository_id)
    )


def links_from(store: Store, repository: str, number: int) -> list[Link]:
    with store._engine.connect() as connection:
        return [Link(*row) for row in connection.execute(_LINKS_FROM, {"repository": repository, "number": number})]


def links_to(store: Store, repository: str, number: int) -> list[Link]:
    """References other stored PRs make to this one (incoming edges)."""
    with store._engine.connect() as connection:
        return [Link(*row) for row in connection.execute(_LINKS_TO, {"repository": repository, "number": number})]


# Built once, like `_FACTS_OF_ONE`.
_LINKS_FROM = (
    link_query()
    .where(and_(repositories.c.full_name == bindparam("repository"), pull_requests.c.number == bindparam("number")))
    .order_by(pr_links.c.id)
)
_LINKS_TO = (
    link_query()
    .where(
        and_(pr_links.c.target_repository == bindparam("repository"), pr_links.c.target_number == bindparam("number"))
    )
    .order_by(pull_requests.c.number)
)


def all_links(store: Store, repository: str) -> list[Link]:
    query = link_query().where(repositories.c.full_name == repository)
    with store._engine.connect() as connection:
        return [Link(*row) for row in connection.execute(query.order_by(pull_requests.c.number))]


def titles(store: Store, repository: str, numbers: list[int]) -> dict[int, str]:
    if not numbers:
        return {}
    with store._engine.connect() as connection:
        rows = connection.execute(
            select(pull_requests.c.number, pull_requests.c.title)
            .join(repositories, repositories.c.id == pull_requests.c.repository_id)
            .where(and_(repositories.c.full_name == repository, pull_requests.c.number.in_(numbers)))
        )
        return {int(r[0]): str(r[1]) for r in rows}
