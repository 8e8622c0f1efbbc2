"""Cached narratives (report prose) with the cost of producing them."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import and_, delete, func, insert, select

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


def save_narrative(store: Store, pull_request_id: int, narrative: Narrative, cache_key: str) -> None:
    """Keep one narrative per (PR, language, length): older cache keys are replaced."""
    if store.read_only:
        return  # a read command on a read-only database: narrated, not cached
    with store._write() as connection:
        lock_pull_requests(connection, [pull_request_id])  # two narrators of one PR take turns (PostgreSQL)
        connection.execute(
            delete(narratives).where(
                and_(
                    narratives.c.pull_request_id == pull_request_id,
                    narratives.c.lang == narrative.lang,
                    narratives.c.length == narrative.length,
                )
            )
        )
        connection.execute(
            insert(narratives).values(
                pull_request_id=pull_request_id,
                lang=narrative.lang,
                length=narrative.length,
                cache_key=cache_key,
                narrator=narrative.narrator,
                model=narrative.cost.model,
                body=narrative.model_dump_json(),
                tokens_in=narrative.cost.tokens_in,
                tokens_out=narrative.cost.tokens_out,
                calls=narrative.cost.calls,
                seconds=narrative.cost.seconds,
                created_at=datetime.now(UTC).replace(tzinfo=None),
            )
        )


def count_narratives(store: Store) -> int:
    """How many narratives are cached, over every PR, language and length."""
    with store._engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(narratives)).scalar_one())
