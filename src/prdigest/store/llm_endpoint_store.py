"""What each LLM endpoint accepts, remembered across runs (`prdigest llm check` shows it).

Rows are keyed by the endpoint's base URL (the caller strips credentials from it) and the
model. Nothing secret is stored: no API key, no request, no server text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import ColumnElement, and_, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from prdigest.store.schema import llm_endpoints
from prdigest.store.store import Store


@dataclass(frozen=True)
class EndpointRecord:
    base_url: str
    model: str
    response_format: str | None  # None: not learnt yet
    token_param: str
    usage: bool | None
    rejected: tuple[str, ...] = ()
    updated_at: datetime | None = field(default=None, compare=False)  # naive UTC


def _where(base_url: str, model: str) -> ColumnElement[bool]:
    return and_(llm_endpoints.c.base_url == base_url, llm_endpoints.c.model == model)


def get_endpoint(store: Store, base_url: str, model: str) -> EndpointRecord | None:
    with store._engine.connect() as connection:
        row = connection.execute(select(llm_endpoints).where(_where(base_url, model))).mappings().first()
    return None if row is None else _record(row)


def list_endpoints(store: Store) -> list[EndpointRecord]:
    with store._engine.connect() as connection:
        rows = connection.execute(
            select(llm_endpoints).order_by(llm_endpoints.c.base_url, llm_endpoints.c.model)
        ).mappings()
        return [_record(row) for row in rows]


def save_endpoint(store: Store, record: EndpointRecord) -> None:
    """Insert or replace the record of (base URL, model). A read-only store keeps nothing."""
    if store.read_only:
        return
    values = {
        "response_format": record.response_format,
        "token_param": record.token_param,
        "usage": record.usage,
        "rejected": json.dumps(list(record.rejected)),
        "updated_at": datetime.now(UTC).replace(tzinfo=None),
    }
    where = _where(record.base_url, record.model)
    with store._write() as connection:
        done = connection.execute(update(llm_endpoints).where(where).values(**values))
        if done.rowcount:
            return
    try:
        with store._write() as connection:
            connection.execute(insert(llm_endpoints).values(base_url=record.base_url, model=record.model, **values))
    except IntegrityError:  # another process inserted it meanwhile: theirs is as good
        return


def forget_endpoint(store: Store, base_url: str, model: str) -> bool:
    """Drop what is remembered of (base URL, model); whether there was anything."""
    if store.read_only:
        return False
    with store._write() as connection:
        done = connection.execute(delete(llm_endpoints).where(_where(base_url, model)))
    return bool(done.rowcount)


def _record(row: object) -> EndpointRecord:
    values = dict(row)  # type: ignore[call-overload]
    try:
        rejected = tuple(str(item) for item in json.loads(values["rejected"] or "[]"))
    except (TypeError, ValueError):
        rejected = ()
    return EndpointRecord(
        base_url=values["base_url"],
        model=values["model"],
        response_format=values["response_format"],
        token_param=values["token_param"],
        usage=values["usage"],
        rejected=rejected,
        updated_at=values["updated_at"],
    )
