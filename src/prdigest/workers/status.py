"""Pending, running and parked work per queue, and the last error per repository."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from celery import Celery

from prdigest.pipeline.follow import last_errors
from prdigest.store import follow_store
from prdigest.store.follow_store import Parked
from prdigest.store.store import Store
from prdigest.workers.app import QUEUES, TASK_QUEUES
from prdigest.workers.connection import redis_client, retrying


@dataclass
class QueueRow:
    name: str
    pending: int = 0  # waiting in the broker
    running: int = 0  # being run by a worker now
    parked: int = 0  # failed after their retries, kept with their error


@dataclass
class QueueStatus:
    queues: list[QueueRow]
    workers: int  # workers that answered
    last_errors: dict[str, str] = field(default_factory=dict)  # repository -> its last error
    parked: list[Parked] = field(default_factory=list)


def queue_status(app: Celery, broker_url: str, store: Store, *, timeout: float = 1.0) -> QueueStatus:
    client: Any = redis_client(broker_url)
    rows = {name: QueueRow(name) for name in QUEUES}
    for name, row in rows.items():
        row.pending = int(retrying(lambda name=name: client.llen(name), seconds=5))  # type: ignore[misc]
    replies = app.control.inspect(timeout=timeout).active() or {}
    for tasks in replies.values():
        for task in tasks:
            queue = TASK_QUEUES.get(str(task.get("name")))
            if queue in rows:
                rows[queue].running += 1
    for task_name, count in follow_store.parked_counts(store).items():
        if task_name in rows:
            rows[task_name].parked = count
    parked = follow_store.list_parked(store)
    return QueueStatus(list(rows.values()), len(replies), last_errors(store, parked), parked)
