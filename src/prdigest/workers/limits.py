"""What every worker shares through Redis: the per-repository sync lock, the LLM concurrency
limit and the GitHub rate-limit gate.

Locks and LLM slots are held with a time-to-live that a heartbeat thread keeps extending, so
a worker killed while holding one frees it within `HOLD_SECONDS` instead of forever.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import redis

from prdigest.workers.connection import key, retrying, server_time

HOLD_SECONDS = 30


class _Heartbeat:
    """Calls ``beat`` every third of the hold time until stopped."""

    def __init__(self, beat: object) -> None:
        self._beat = beat
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="prdigest-heartbeat")

    def __enter__(self) -> _Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(HOLD_SECONDS / 3):
            with contextlib.suppress(redis.RedisError):  # a broker restart: the next beat tries again
                self._beat()  # type: ignore[operator]


@contextmanager
def repository_lock(client: redis.Redis, repository: str) -> Iterator[bool]:
    """Hold the sync lock of a repository: yields True when this worker got it, False when
    another worker is syncing it (the caller then leaves the sync to that one)."""
    name = key("lock", "sync", repository)
    token = uuid.uuid4().hex
    got = bool(retrying(lambda: client.set(name, token, nx=True, ex=HOLD_SECONDS)))
    if not got:
        yield False
        return

    # Extend only while the lock is still ours (it may have expired during a broker outage).
    extend = client.register_script(
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('EXPIRE', KEYS[1], ARGV[2]) end return 0"
    )
    release = client.register_script(
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"
    )
    try:
        with _Heartbeat(lambda: extend(keys=[name], args=[token, HOLD_SECONDS])):
            yield True
    finally:
        retrying(lambda: release(keys=[name], args=[token]))


# KEYS: the slots; ARGV: holder, limit, hold seconds. Atomic, so two workers never both
# take the last slot; holders whose heartbeat stopped (a killed worker) age out first.
_TAKE_SLOT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[3]))
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
    redis.call('ZADD', KEYS[1], now, ARGV[1])
    return 1
end
return 0
"""


@contextmanager
def llm_slot(client: redis.Redis, limit: int, *, poll: float = 0.05) -> Iterator[None]:
    """Wait for one of ``limit`` LLM slots shared by every worker, hold it, give it back.

    A counting semaphore on a sorted set of holders scored by Redis's clock.
    """
    name = key("llm", "slots")
    ident = uuid.uuid4().hex
    take = client.register_script(_TAKE_SLOT)
    while not retrying(lambda: take(keys=[name], args=[ident, limit, HOLD_SECONDS])):
        time.sleep(poll)
    try:
        with _Heartbeat(lambda: client.zadd(name, {ident: server_time(client)}, xx=True)):
            yield
    finally:
        retrying(lambda: client.zrem(name, ident))


class RedisRateGate:
    """A `prdigest.sources.github.gate.RateGate` shared by every worker using one token.

    When a response shows the window's budget down to ``reserve`` requests, or a 403/429
    asks to wait, every worker's next request waits for the reset (the client's
    ``max_wait`` bounds it: the sync then stops, keeping what it wrote).
    """

    def __init__(self, client: redis.Redis, token: str | None, *, reserve: int = 20) -> None:
        # Keyed by a digest: the token itself never goes to Redis.
        digest = hashlib.sha256((token or "anonymous").encode()).hexdigest()[:16]
        self._client: Any = client  # redis-py types every answer as "maybe awaitable"
        self._key = key("github", digest, "paused_until")
        self._reserve = reserve

    def paused_for(self) -> float:
        """Seconds left in the current pause (0 when requests may go)."""
        until = retrying(lambda: self._client.get(self._key))
        if until is None:
            return 0.0
        return max(0.0, float(until) - retrying(lambda: server_time(self._client)))

    def observe(self, remaining: int | None, reset_at: float | None) -> None:
        if remaining is not None and reset_at is not None and remaining <= self._reserve:
            self._pause_until(reset_at + 1.0)

    def pause(self, seconds: float, reason: str) -> None:
        self._pause_until(retrying(lambda: server_time(self._client)) + seconds)

    def _pause_until(self, moment: float) -> None:
        # Only ever pushed later: a short pause must not end a longer one.
        script = self._client.register_script(
            "local cur = tonumber(redis.call('GET', KEYS[1]) or '0') "
            "if tonumber(ARGV[1]) > cur then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end return 0"
        )
        ttl = max(1, int(moment - time.time()) + 60)
        retrying(lambda: script(keys=[self._key], args=[f"{moment:.3f}", ttl]))
