"""Followed repositories (`prdigest follow`) and work parked after its retries failed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from prdigest.errors import ConfigError, NotFound
from prdigest.store.schema import follows, parked_tasks
from prdigest.store.store import Store


@dataclass(frozen=True)
class Follow:
    repository: str
    source: str  # git | github
    location: str | None  # the clone's path for git
    every_seconds: int
    languages: tuple[str, ...]
    publish_dir: str | None
    last_run_at: datetime | None = None
    last_status: str | None = None
    last_error: str | None = None

    def due(self, now: datetime) -> bool:
        """Whether a scheduled pass should sync it now (never run, or ``every`` has passed)."""
        if self.last_run_at is None:
            return True
        return (now.replace(tzinfo=None) - self.last_run_at).total_seconds() >= self.every_seconds


@dataclass(frozen=True)
class Parked:
    task: str
    repository: str
    subject: str
    error: str
    attempts: int
    parked_at: datetime


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def add_follow(store: Store, follow: Follow) -> None:
    """Follow a repository; following it again replaces its settings (keeps its history)."""
    values = {
        "source": follow.source,
        "location": follow.location,
        "every_seconds": follow.every_seconds,
        "languages": ",".join(follow.languages),
        "publish_dir": follow.publish_dir,
    }
    with store._engine.begin() as connection:
        done = connection.execute(update(follows).where(follows.c.repository == follow.repository).values(**values))
        if done.rowcount == 0:
            try:
                connection.execute(insert(follows).values(repository=follow.repository, created_at=_now(), **values))
            except IntegrityError as exc:  # added by someone else meanwhile
                raise ConfigError(f"{follow.repository} was followed concurrently; run the command again") from exc


def remove_follow(store: Store, repository: str) -> None:
    with store._engine.begin() as connection:
        done = connection.execute(delete(follows).where(follows.c.repository == repository))
    if done.rowcount == 0:
        raise NotFound(f"{repository} is not followed (see `prdigest follow list`)")


def list_follows(store: Store) -> list[Follow]:
    with store._engine.connect() as connection:
        rows = connection.execute(select(follows).order_by(follows.c.repository)).mappings().all()
    return [_follow(row) for row in rows]


def get_follow(store: Store, repository: str) -> Follow:
    with store._engine.connect() as connection:
        row = connection.execute(select(follows).where(follows.c.repository == repository)).mappings().first()
    if row is None:
        raise NotFound(f"{repository} is not followed (see `prdigest follow list`)")
    return _follow(row)


def mark_run(store: Store, repository: str, status: str, error: str | None = None) -> None:
    """Record how a pass over the repository ended (``ok``, ``failed``, ``busy``)."""
    with store._engine.begin() as connection:
        connection.execute(
            update(follows)
            .where(follows.c.repository == repository)
            .values(last_run_at=_now(), last_status=status, last_error=error)
        )


def _follow(row: object) -> Follow:
    values = dict(row)  # type: ignore[call-overload]
    return Follow(
        repository=values["repository"],
        source=values["source"],
        location=values["location"],
        every_seconds=int(values["every_seconds"]),
        languages=tuple(code for code in str(values["languages"]).split(",") if code),
        publish_dir=values["publish_dir"],
        last_run_at=values["last_run_at"],
        last_status=values["last_status"],
        last_error=values["last_error"],
    )


# --- parked work ---------------------------------------------------------------------


def park(store: Store, task: str, repository: str, subject: str, error: str, attempts: int) -> None:
    """Put failed work aside with its error; parking it again keeps only the latest error."""
    key = and_(parked_tasks.c.task == task, parked_tasks.c.repository == repository, parked_tasks.c.subject == subject)
    values = {"error": error[:4000], "attempts": attempts, "parked_at": _now()}
    with store._engine.begin() as connection:
        done = connection.execute(update(parked_tasks).where(key).values(**values))
        if done.rowcount == 0:
            connection.execute(insert(parked_tasks).values(task=task, repository=repository, subject=subject, **values))


def unpark(store: Store, task: str, repository: str, subject: str) -> None:
    """Forget parked work that has now succeeded."""
    key = and_(parked_tasks.c.task == task, parked_tasks.c.repository == repository, parked_tasks.c.subject == subject)
    with store._engine.begin() as connection:
        connection.execute(delete(parked_tasks).where(key))


def list_parked(store: Store, repository: str | None = None) -> list[Parked]:
    query = select(
        parked_tasks.c.task,
        parked_tasks.c.repository,
        parked_tasks.c.subject,
        parked_tasks.c.error,
        parked_tasks.c.attempts,
        parked_tasks.c.parked_at,
    ).order_by(parked_tasks.c.parked_at.desc(), parked_tasks.c.id.desc())
    if repository is not None:
        query = query.where(parked_tasks.c.repository == repository)
    with store._engine.connect() as connection:
        return [Parked(*row) for row in connection.execute(query)]


def parked_counts(store: Store) -> dict[str, int]:
    """Parked work per task kind (= per queue)."""
    query = select(parked_tasks.c.task, func.count()).group_by(parked_tasks.c.task)
    with store._engine.connect() as connection:
        return {str(task): int(count) for task, count in connection.execute(query)}
