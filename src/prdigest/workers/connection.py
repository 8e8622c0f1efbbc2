"""The Redis connection of the broker, and retries that ride out a broker restart."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

import redis

from prdigest.errors import QueueError

T = TypeVar("T")
KEY_PREFIX = "prdigest:"
# How long our own Redis calls keep trying while the broker is down (a restart takes seconds).
RECONNECT_SECONDS = 60.0


def redis_client(broker_url: str) -> redis.Redis:
    """A client on the broker's Redis: the shared limits and the pass progress live there."""
    if not broker_url.startswith(("redis://", "rediss://", "unix://")):
        raise QueueError("the broker must be Redis (redis://HOST:PORT/DB): the workers keep their shared limits there")
    return redis.Redis.from_url(broker_url, decode_responses=True, socket_timeout=30, socket_connect_timeout=5)


def key(*parts: object) -> str:
    return KEY_PREFIX + ":".join(str(part) for part in parts)


def retrying(call: Callable[[], T], *, seconds: float = RECONNECT_SECONDS) -> T:
    """Run ``call``; while Redis is unreachable, try again for up to ``seconds``."""
    deadline = time.monotonic() + seconds
    delay = 0.1
    while True:
        try:
            return call()
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            if time.monotonic() > deadline:
                raise QueueError(f"the broker is unreachable: {type(exc).__name__}") from exc
            time.sleep(delay)
            delay = min(delay * 2, 2.0)


def ping(client: redis.Redis) -> None:
    try:
        client.ping()
    except (redis.ConnectionError, redis.TimeoutError) as exc:
        raise QueueError(f"cannot reach the broker: {exc}") from exc


def server_time(client: redis.Redis) -> float:
    """Redis's clock, so that processes on several hosts agree on "now"."""
    answer: Any = client.time()
    seconds, micros = answer
    return float(seconds) + float(micros) / 1e6


def as_int(value: Any, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default
