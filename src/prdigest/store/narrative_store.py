"""Cached narratives (report prose) with the cost of producing them.

A PR keeps, per language and length, one row per slot: the offline (extractive) narrative,
and per model its newest successful LLM narrative and its newest fallback (a failed LLM
narration, kept so it is retried with a back-off rather than on every view). Which one is
shown is one rule (`shown_narrative`, and the feed query's join): the newest successful
narrative of the configured model, else the offline one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Connection, Delete, and_, bindparam, delete, func, insert, or_, select
from sqlalchemy.sql.elements import ColumnElement

from prdigest.models.narrative import Narrative
from prdigest.store.schema import narratives
from prdigest.store.store import Store
from prdigest.store.upsert import lock_pull_requests


def get_narrative(store: Store, pull_request_id: int, lang: str, length: str, cache_key: str) -> Narrative | None:
    with store._engine.connect() as connection:
        row = connection.execute(
            select(narratives.c.body).where(
                and_(
                    narratives.c.pull_request_id == pull_request_id,
                    narratives.c.lang == lang,
                    narratives.c.length == length,
                    narratives.c.cache_key == cache_key,
                )
            )
        ).first()
    return None if row is None else Narrative.model_validate_json(row[0])


def stored_bodies(store: Store, pull_request_id: int) -> dict[tuple[str, str, str], str]:
    """Every narrative stored for one PR, as JSON keyed by (lang, length, cache key): one query
    for a caller narrating the PR in several languages and lengths (publishing)."""
    with store._engine.connect() as connection:
        rows = connection.execute(_BODIES, {"pr": pull_request_id}).all()
    return {(row[0], row[1], row[2]): row[3] for row in rows}


@dataclass(frozen=True)
class StoredNarrative:
    narrative: Narrative
    cache_key: str
    created_at: datetime | None  # naive UTC


def get_stored(store: Store, pull_request_id: int, lang: str, length: str, cache_key: str) -> StoredNarrative | None:
    """The narrative stored under `cache_key`, with when it was stored."""
    with store._engine.connect() as connection:
        row = connection.execute(
            select(narratives.c.body, narratives.c.created_at).where(
                and_(
                    narratives.c.pull_request_id == pull_request_id,
                    narratives.c.lang == lang,
                    narratives.c.length == length,
                    narratives.c.cache_key == cache_key,
                )
            )
        ).first()
    return None if row is None else StoredNarrative(Narrative.model_validate_json(row[0]), cache_key, row[1])


def shown_narrative(store: Store, pull_request_id: int, lang: str, length: str, model: str | None) -> Narrative | None:
    """What to show: the newest successful LLM narrative of `model`, else the newest offline
    one (a fallback holds offline text too); None when neither is stored."""
    slot = narratives.c.narrator == "extractive"
    if model is not None:
        slot = or_(slot, and_(narratives.c.narrator == "llm", narratives.c.model == model))
    order = (narratives.c.narrator != "llm", narratives.c.id.desc())
    with store._engine.connect() as connection:
        row = connection.execute(
            select(narratives.c.body)
            .where(
                and_(
                    narratives.c.pull_request_id == pull_request_id,
                    narratives.c.lang == lang,
                    narratives.c.length == length,
                    slot,
                )
            )
            .order_by(*order)
            .limit(1)
        ).first()
    return None if row is None else Narrative.model_validate_json(row[0])


def save_narrative(store: Store, pull_request_id: int, narrative: Narrative, cache_key: str) -> None:
    """Keep one narrative per (PR, language, length) and slot (narrator and model): the
    older row of the same slot, and any row under the same cache key, are replaced."""
    save_narratives(store, pull_request_id, [(narrative, cache_key)])


def save_narratives(store: Store, pull_request_id: int, saved: list[tuple[Narrative, str]]) -> None:
    """`save_narrative` for several narratives of one PR (each with its cache key), in one
    transaction: publishing narrates a PR in every language and length at once."""
    save_many(store, [(pull_request_id, saved)])


def save_many(store: Store, saved: Sequence[tuple[int, list[tuple[Narrative, str]]]]) -> None:
    """`save_narratives` for several PRs in turn, in one transaction (publishing saves a page
    of PRs at once): the same rows, with the same ids, as a transaction for each."""
    saved = [(pull_request_id, rows) for pull_request_id, rows in saved if rows]
    if store.read_only or not saved:
        return  # a read command on a read-only database: narrated, not cached
    now = datetime.now(UTC).replace(tzinfo=None)
    with store._write() as connection:
        # Two narrators of one PR take turns (PostgreSQL); in id order, so none waits in a cycle.
        lock_pull_requests(connection, sorted({pull_request_id for pull_request_id, _ in saved}))
        for pull_request_id, rows in saved:
            if len({(narrative.lang, narrative.length) for narrative, _ in rows}) == len(rows):
                _save_rows(connection, pull_request_id, rows, now)
            else:  # one replaces another of the batch: each in turn
                for one in rows:
                    _save_rows(connection, pull_request_id, [one], now)


def _save_rows(connection: Connection, pull_request_id: int, saved: list[tuple[Narrative, str]], now: datetime) -> None:
    """Narratives of distinct languages and lengths, with one statement per kind run over all
    of them (an executemany each): the rows a narrative replaces share its language and
    length, so no delete removes another's insert, and the inserts keep their order (and ids)."""
    replaced_no_model: list[dict[str, object]] = []
    replaced_of_model: list[dict[str, object]] = []
    rows: list[dict[str, object]] = []
    for narrative, cache_key in saved:
        model = narrative.cost.model
        slot: dict[str, object] = {
            "pr": pull_request_id,
            "lang": narrative.lang,
            "length": narrative.length,
            "key": cache_key,
            "narrator": narrative.narrator,
        }
        if model is None:
            replaced_no_model.append(slot)
        else:
            replaced_of_model.append({**slot, "model": model})
        rows.append(
            {
                "pull_request_id": pull_request_id,
                "lang": narrative.lang,
                "length": narrative.length,
                "cache_key": cache_key,
                "narrator": narrative.narrator,
                "model": narrative.cost.model,
                "body": narrative.model_dump_json(),
                "tokens_in": narrative.cost.tokens_in,
                "tokens_out": narrative.cost.tokens_out,
                "calls": narrative.cost.calls,
                "seconds": narrative.cost.seconds,
                "created_at": now,
            }
        )
    if replaced_no_model:
        connection.execute(_REPLACED_NO_MODEL, replaced_no_model)
    if replaced_of_model:
        connection.execute(_REPLACED_OF_MODEL, replaced_of_model)
    connection.execute(_INSERT, rows)


def _replaced(same_model: ColumnElement[bool]) -> Delete:
    """The rows a new narrative replaces: any under its cache key, and its slot's (the same
    narrator and model) older one."""
    return delete(narratives).where(
        and_(
            narratives.c.pull_request_id == bindparam("pr"),
            narratives.c.lang == bindparam("lang"),
            narratives.c.length == bindparam("length"),
            or_(
                narratives.c.cache_key == bindparam("key"),
                and_(narratives.c.narrator == bindparam("narrator"), same_model),
            ),
        )
    )


# Built once: building a statement costs ten times executing it (publishing saves thousands).
_REPLACED_NO_MODEL = _replaced(narratives.c.model.is_(None))
_REPLACED_OF_MODEL = _replaced(narratives.c.model == bindparam("model"))
_INSERT = insert(narratives)
_BODIES = select(narratives.c.lang, narratives.c.length, narratives.c.cache_key, narratives.c.body).where(
    narratives.c.pull_request_id == bindparam("pr")
)


def count_narratives(store: Store) -> int:
    """How many narratives are cached, over every PR, language and length."""
    with store._engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(narratives)).scalar_one())
