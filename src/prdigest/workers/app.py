"""The Celery application: one queue per step, acknowledged late, re-delivered when lost.

`make_app` is called once per process at the edge (the CLI) with the settings read there;
the worker's pool processes inherit it. `Runtime` carries what the tasks need (settings, the
database URL) and opens the store and the Redis client once per process.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import redis
from celery import Celery

from prdigest.config import QueueConfig, Settings
from prdigest.store.store import Store
from prdigest.workers.connection import redis_client

QUEUES = ("sync", "analyze", "narrate", "publish")
TASK_QUEUES = {
    "prdigest.sync": "sync",
    "prdigest.tick": "sync",
    "prdigest.analyze": "analyze",
    "prdigest.narrate": "narrate",
    "prdigest.publish": "publish",
}


@dataclass
class Runtime:
    """What the tasks of this process use; opened lazily, once per (forked) process."""

    settings: Settings
    database_url: str
    _pid: int = field(default=-1, repr=False)
    _store: Store | None = field(default=None, repr=False)
    _redis: redis.Redis | None = field(default=None, repr=False)

    @property
    def queue(self) -> QueueConfig:
        assert self.settings.queue is not None  # a runtime exists only with a broker
        return self.settings.queue

    def _fresh(self) -> None:
        # A pool process forked from the main one must not reuse its connections.
        if self._pid != os.getpid():
            self._pid = os.getpid()
            self._store = None
            self._redis = None

    def store(self) -> Store:
        self._fresh()
        if self._store is None:
            self._store = Store.open(self.database_url)
        return self._store

    def redis(self) -> redis.Redis:
        self._fresh()
        if self._redis is None:
            self._redis = redis_client(self.queue.broker_url)
        return self._redis


def make_app(runtime: Runtime, *, tick_seconds: float = 60.0) -> Celery:
    """The Celery app for these settings, with every task registered."""
    queue = runtime.queue
    app = Celery("prdigest", broker=queue.broker_url, set_as_current=True)
    visibility = queue.visibility_timeout
    app.conf.update(
        task_acks_late=True,  # acknowledged once done: a lost worker's task is delivered again
        task_reject_on_worker_lost=True,  # ... at once when a pool process dies mid-task
        worker_prefetch_multiplier=1,  # a worker holds only the tasks it runs
        task_ignore_result=True,  # progress lives in Redis (passes) and the database
        task_routes={name: {"queue": queue_name} for name, queue_name in TASK_QUEUES.items()},
        task_default_queue="sync",
        broker_connection_retry_on_startup=True,
        broker_connection_max_retries=None,  # a broker restart is waited out, not fatal
        broker_transport_options={
            "visibility_timeout": visibility,
            # Sweep for the unacknowledged tasks of lost workers often enough to honour a
            # short visibility timeout.
            "unacked_restore_interval": max(1, min(10, visibility // 4)),
            "unacked_restore_throttle": 1,
        },
        task_publish_retry=True,
        task_publish_retry_policy={"max_retries": 60, "interval_start": 0.2, "interval_step": 0.5, "interval_max": 2},
        worker_hijack_root_logger=False,
        worker_cancel_long_running_tasks_on_connection_loss=False,
        beat_schedule={"follow-tick": {"task": "prdigest.tick", "schedule": tick_seconds}},
        timezone="UTC",
    )
    from prdigest.workers.tasks import register

    register(app, runtime)
    return app


def send(app: Celery, name: str, *args: Any) -> None:
    """Enqueue a task by name on its step's queue."""
    app.send_task(name, args=list(args), queue=TASK_QUEUES[name])
