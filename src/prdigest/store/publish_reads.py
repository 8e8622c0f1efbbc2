"""What publishing reads of a page of PRs, in a few queries for the whole page: each PR's
record, facts, stored narratives and link rows, which the per-PR reads (`Store.get_pr`,
`facts_store.analysis_states`/`get_facts`, `narrative_store.stored_bodies`,
`facts_store.links_from`/`links_to`) would read in about ten statements and connections per PR.

Rows come back as those reads return them (same columns, same order); a record that cannot
be read is left out, so its PR takes the per-PR path, which says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, bindparam, select

from prdigest.interrupts import CTRL_C
from prdigest.models.pullrequest import PullRequest
from prdigest.store.facts_store import link_query
from prdigest.store.file_texts import read_texts
from prdigest.store.links import Link
from prdigest.store.record_texts import text_refs, wanted_digests, with_texts
from prdigest.store.schema import facts, narratives, pr_links, pull_requests, repositories
from prdigest.store.store import Store


@dataclass(frozen=True)
class StoredPR:
    """One PR as stored: what `Store.get_pr`, its analysis state and facts row, its stored
    narratives and its link rows say."""

    pr_id: int
    record: PullRequest
    record_hash: str
    facts_key: str | None  # of the stored facts, None when never analyzed
    facts_body: str | None  # the stored facts' JSON
    narratives: dict[tuple[str, str, str], str]  # JSON by (lang, length, cache key)
    outgoing: list[Link]  # `facts_store.links_from`
    incoming: list[Link]  # `facts_store.links_to`


def read_page(store: Store, repository: str, numbers: Sequence[int]) -> dict[int, StoredPR]:
    """The stored PRs among ``numbers``, by number (one not stored, or whose record cannot be
    read, is left out), read in one connection."""
    if not numbers:
        return {}
    wanted = {"repository": repository, "numbers": list(numbers)}
    with store._engine.connect() as connection:
        rows = connection.execute(_PRS, wanted).all()
        records = _records(connection, [(str(row[2]), row[3]) for row in rows])
        ids = [int(row[0]) for row in rows]
        bodies: dict[int, dict[tuple[str, str, str], str]] = {pr_id: {} for pr_id in ids}
        if ids:
            for pr_id, lang, length, key, body in connection.execute(_NARRATIVES, {"ids": ids}):
                bodies[int(pr_id)][(lang, length, key)] = body
        outgoing: dict[int, list[Link]] = {int(number): [] for number in numbers}
        for row in connection.execute(_LINKS_FROM, wanted):
            outgoing[int(row[1])].append(Link(*row))
        incoming: dict[int, list[Link]] = {int(number): [] for number in numbers}
        for row in connection.execute(_LINKS_TO, wanted):
            incoming[int(row[4])].append(Link(*row))
    found: dict[int, StoredPR] = {}
    for row, record in zip(rows, records, strict=True):
        if record is None:
            continue
        pr_id, number = int(row[0]), int(row[1])
        key, body = row[5], row[6]
        found[number] = StoredPR(
            pr_id,
            record,
            str(row[4]),
            None if key is None else str(key),
            None if body is None else str(body),
            bodies[pr_id],
            outgoing[number],
            incoming[number],
        )
    return found


def _records(connection: Connection, rows: list[tuple[str, str | None]]) -> list[PullRequest | None]:
    """`file_texts.load_records` row by row: a row that cannot be read gives None, not an error
    for the whole page."""
    refs: list[tuple[bool, list[list[Any]] | None]] = []  # (readable, the row's text refs)
    for _record, texts in rows:
        try:
            refs.append((True, text_refs(texts)))
        except Exception:
            CTRL_C.raise_if_pressed()
            refs.append((False, None))
    found = read_texts(connection, set().union(*(wanted_digests(ref) for _ok, ref in refs)))
    records: list[PullRequest | None] = []
    for (record, _texts), (readable, ref) in zip(rows, refs, strict=True):
        try:
            records.append(with_texts(record, ref, found) if readable else None)
        except Exception:
            CTRL_C.raise_if_pressed()
            records.append(None)
    return records


# Built once: building a statement costs more than executing it.
_PRS = (
    select(
        pull_requests.c.id,
        pull_requests.c.number,
        pull_requests.c.record,
        pull_requests.c.texts,
        pull_requests.c.record_hash,
        facts.c.cache_key,
        facts.c.body,
    )
    .join(repositories, repositories.c.id == pull_requests.c.repository_id)
    .outerjoin(facts, facts.c.pull_request_id == pull_requests.c.id)
    .where(
        repositories.c.full_name == bindparam("repository"),
        pull_requests.c.number.in_(bindparam("numbers", expanding=True)),
    )
)
_NARRATIVES = select(
    narratives.c.pull_request_id, narratives.c.lang, narratives.c.length, narratives.c.cache_key, narratives.c.body
).where(narratives.c.pull_request_id.in_(bindparam("ids", expanding=True)))
_LINKS_FROM = (
    link_query()
    .where(
        and_(
            repositories.c.full_name == bindparam("repository"),
            pull_requests.c.number.in_(bindparam("numbers", expanding=True)),
        )
    )
    .order_by(pr_links.c.id)
)
# `links_to` orders by the source's number; link id breaks ties as the per-PR index scan does.
_LINKS_TO = (
    link_query()
    .where(
        and_(
            pr_links.c.target_repository == bindparam("repository"),
            pr_links.c.target_number.in_(bindparam("numbers", expanding=True)),
        )
    )
    .order_by(pull_requests.c.number, pr_links.c.id)
)
