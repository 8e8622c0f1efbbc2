"""Watches (`prdigest watch`) and what their digests delivered.

A watch's rules are stored as JSON lists; `digest_candidates` reads the analyzed PRs of its
repository a digest may hold (not yet delivered, or dated since a day), with their facts, and
`mark_read` records what a digest delivered. Matching the rules is `facts_view.watch_match`'s.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, delete, exists, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from prdigest.errors import ConfigError, NotFound
from prdigest.models.facts import Facts, VerdictLevel
from prdigest.models.watch import LEVEL_ORDER, Watch
from prdigest.store.read_models import FEED_ORDER
from prdigest.store.record_batches import to_naive_utc
from prdigest.store.schema import facts, pull_requests, repositories, watch_reads, watches
from prdigest.store.store import Store
from prdigest.words import CATALOG


@dataclass(frozen=True)
class Candidate:
    """An analyzed PR a digest may hold: its facts, and what the facts do not say."""

    pull_request_id: int
    number: int
    author: str | None
    date: datetime | None
    facts: Facts
    facts_key: str  # the stored facts' cache key: what "looked at without a match" is recorded under


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def _rules(watch: Watch) -> dict[str, str]:
    return {
        "paths": json.dumps(list(watch.paths)),
        "packages": json.dumps(list(watch.packages)),
        "symbols": json.dumps(list(watch.symbols)),
        "people": json.dumps(list(watch.people)),
        "repository": watch.repository,
        "lang": watch.lang,
        "min_level": watch.min_level.value,
    }


def save_watch(store: Store, watch: Watch) -> bool:
    """Store the watch; one of that name already there gets these rules (and keeps what it
    delivered). True when the watch is new."""
    values = _rules(watch)
    with store._engine.begin() as connection:
        done = connection.execute(update(watches).where(watches.c.name == watch.name).values(**values))
        if done.rowcount:
            # New rules: what did not match the old ones may match these; what was delivered stays read.
            watch_id = select(watches.c.id).where(watches.c.name == watch.name).scalar_subquery()
            connection.execute(
                delete(watch_reads).where(and_(watch_reads.c.watch_id == watch_id, watch_reads.c.delivered.is_(False)))
            )
            return False
        try:
            connection.execute(insert(watches).values(name=watch.name, created_at=_now(), **values))
        except IntegrityError as exc:  # added by someone else meanwhile
            raise ConfigError(f"watch {watch.name} was added concurrently; run the command again") from exc
    return True


def _unknown(name: str) -> NotFound:
    return NotFound(f"no watch named {name!r} (see `prdigest watch list`)")


def get_watch(store: Store, name: str) -> Watch:
    with store._engine.connect() as connection:
        row = connection.execute(select(watches).where(watches.c.name == name)).mappings().first()
    if row is None:
        raise _unknown(name)
    return _watch(row)


def list_watches(store: Store, repository: str | None = None) -> list[Watch]:
    query = select(watches).order_by(watches.c.name)
    if repository is not None:
        query = query.where(watches.c.repository == repository)
    with store._engine.connect() as connection:
        return [_watch(row) for row in connection.execute(query).mappings()]


def remove_watch(store: Store, name: str) -> None:
    with store._engine.begin() as connection:
        found = connection.execute(select(watches.c.id).where(watches.c.name == name)).scalar_one_or_none()
        if found is None:
            raise _unknown(name)
        # Explicit, not only ON DELETE CASCADE: a PostgreSQL or SQLite without foreign keys agrees.
        connection.execute(delete(watch_reads).where(watch_reads.c.watch_id == found))
        connection.execute(delete(watches).where(watches.c.id == found))


def _watch(row: Any) -> Watch:
    return Watch(
        name=row["name"],
        repository=row["repository"],
        paths=tuple(json.loads(row["paths"])),
        packages=tuple(json.loads(row["packages"])),
        symbols=tuple(json.loads(row["symbols"])),
        people=tuple(json.loads(row["people"])),
        lang=CATALOG.lang(row["lang"]),
        min_level=VerdictLevel(row["min_level"]),
        created_at=row["created_at"],
        last_read_at=row["last_read_at"],
    )


def digest_candidates(store: Store, watch: Watch, *, since: datetime | None, unread: bool) -> list[Candidate]:
    """The analyzed PRs of the watch's repository at its ``min_level`` or above, newest first:
    dated ``since`` or later when given, and (``unread``) neither delivered by its digest nor
    looked at without a match since they were last analyzed."""
    levels = [level.value for level in LEVEL_ORDER if watch.keeps(level)]
    query = (
        select(
            pull_requests.c.id,
            pull_requests.c.number,
            pull_requests.c.author,
            FEED_ORDER,
            facts.c.body,
            facts.c.cache_key,
        )
        .join(facts, facts.c.pull_request_id == pull_requests.c.id)
        .join(repositories, repositories.c.id == pull_requests.c.repository_id)
        .where(and_(repositories.c.full_name == watch.repository, facts.c.verdict.in_(levels)))
        .order_by(FEED_ORDER.desc(), pull_requests.c.number.desc())
    )
    if since is not None:
        query = query.where(_on_or_after(since))
    if unread:
        read = (
            select(watch_reads.c.pull_request_id)
            .join(watches, watches.c.id == watch_reads.c.watch_id)
            .where(
                and_(
                    watches.c.name == watch.name,
                    watch_reads.c.pull_request_id == pull_requests.c.id,
                    or_(watch_reads.c.delivered.is_(True), watch_reads.c.facts_key == facts.c.cache_key),
                )
            )
        )
        query = query.where(~exists(read))
    with store._engine.connect() as connection:
        rows = connection.execute(query).all()
    return [
        Candidate(int(r[0]), int(r[1]), r[2], _as_datetime(r[3]), Facts.model_validate_json(r[4]), str(r[5]))
        for r in rows
    ]


def _on_or_after(since: datetime) -> Any:
    return FEED_ORDER >= to_naive_utc(since)  # noqa: SIM300 (a column on the left reads as SQL does)


def _as_datetime(value: object) -> datetime | None:
    # SQLite returns coalesce() of two DateTime columns as text.
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value))


def mark_read(
    store: Store, name: str, pull_request_ids: Iterable[int], looked_at: Iterable[tuple[int, str]] = ()
) -> int:
    """Record that the watch's digest delivered these PRs, and looked at ``looked_at`` (PR id,
    facts key) without a match; how many PRs were delivered that were not before."""
    now = _now()
    with store._engine.begin() as connection:
        watch_id = connection.execute(select(watches.c.id).where(watches.c.name == name)).scalar_one_or_none()
        if watch_id is None:
            raise _unknown(name)
        known = {
            int(pr): bool(delivered)
            for pr, delivered in connection.execute(
                select(watch_reads.c.pull_request_id, watch_reads.c.delivered).where(watch_reads.c.watch_id == watch_id)
            )
        }
        delivered = set(pull_request_ids)
        new = sorted(pr for pr in delivered if pr not in known)
        promoted = sorted(pr for pr in delivered if known.get(pr) is False)
        # Every row names every column: an executemany takes its columns from the first row.
        rows = [
            {"watch_id": watch_id, "pull_request_id": pr, "read_at": now, "delivered": True, "facts_key": None}
            for pr in new
        ]
        keys = dict(looked_at)
        for pr in sorted(set(keys) - delivered):
            if pr not in known:
                rows.append(
                    {
                        "watch_id": watch_id,
                        "pull_request_id": pr,
                        "read_at": now,
                        "delivered": False,
                        "facts_key": keys[pr],
                    }
                )
            elif known[pr] is False:
                connection.execute(_one(watch_id, pr).values(read_at=now, facts_key=keys[pr]))
        if rows:
            connection.execute(insert(watch_reads), rows)
        for pr in promoted:
            connection.execute(_one(watch_id, pr).values(read_at=now, delivered=True, facts_key=None))
        connection.execute(update(watches).where(watches.c.id == watch_id).values(last_read_at=now))
    return len(new) + len(promoted)


def _one(watch_id: int, pull_request_id: int) -> Any:
    return update(watch_reads).where(
        and_(watch_reads.c.watch_id == watch_id, watch_reads.c.pull_request_id == pull_request_id)
    )


def delivered_count(store: Store, name: str) -> int:
    """How many PRs the watch's digest has delivered (for `watch list`)."""
    query = (
        select(func.count())
        .select_from(watch_reads)
        .join(watches, watches.c.id == watch_reads.c.watch_id)
        .where(and_(watches.c.name == name, watch_reads.c.delivered.is_(True)))
    )
    with store._engine.connect() as connection:
        return int(connection.execute(query).scalar_one())
