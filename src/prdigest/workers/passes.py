"""A pass's progress in Redis, and the barriers between its steps.

A pass covers some repositories; for each one the steps run in order: sync, then one
analysis per PR, then one narration per (PR, language, length), then the publication. The
tasks of a step all "arrive" at the step's barrier when they end (done or parked); the one
that completes it starts the next step. Arriving is a set insertion, so a task delivered
twice (a lost worker, a broker restart) counts once, and a re-delivered last task starts the
next step again, which is harmless because every step is idempotent.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import redis

from prdigest.workers.connection import as_int, key, retrying

# Progress is kept for a day: long enough to read it back, short enough not to pile up.
KEEP_SECONDS = 24 * 3600
STEPS = ("analyze", "narrate")
COUNTERS = ("synced", "analyzed", "narrated", "published", "failed")

# KEYS: done set, counter, total; ARGV: member. Returns {added, count, total}.
_ARRIVE = """
local added = redis.call('SADD', KEYS[1], ARGV[1])
local count
if added == 1 then count = redis.call('INCR', KEYS[2]) else count = tonumber(redis.call('GET', KEYS[2]) or '0') end
redis.call('EXPIRE', KEYS[1], ARGV[2]) redis.call('EXPIRE', KEYS[2], ARGV[2])
return {added, count, tonumber(redis.call('GET', KEYS[3]) or '-1')}
"""


@dataclass
class RepoProgress:
    repository: str
    status: str = "queued"  # queued | syncing | analyze | narrate | publish | ok | failed | busy
    counts: dict[str, int] = field(default_factory=dict)
    error: str | None = None


@dataclass
class PassProgress:
    pass_id: str
    repositories: list[RepoProgress]
    open: int  # repositories not finished yet

    @property
    def done(self) -> bool:
        return self.open <= 0


def new_pass_id() -> str:
    return time.strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:8]


class Passes:
    def __init__(self, client: redis.Redis) -> None:
        self._client: Any = client  # redis-py types every answer as "maybe awaitable"
        self._arrive = client.register_script(_ARRIVE)

    def _hash(self, pass_id: str) -> str:
        return key("pass", pass_id)

    def start(self, pass_id: str, repositories: list[str]) -> None:
        values: dict[str, str | int] = {"open": len(repositories), "repositories": "\n".join(repositories)}
        values.update({f"{repo}|status": "queued" for repo in repositories})

        def write() -> None:
            pipe = self._client.pipeline()
            pipe.hset(self._hash(pass_id), mapping=values)
            pipe.expire(self._hash(pass_id), KEEP_SECONDS)
            pipe.execute()

        retrying(write)

    def set_status(self, pass_id: str, repository: str, status: str) -> None:
        retrying(lambda: self._client.hset(self._hash(pass_id), f"{repository}|status", status))

    def count(self, pass_id: str, repository: str, counter: str, amount: int = 1) -> None:
        if amount:
            retrying(lambda: self._client.hincrby(self._hash(pass_id), f"{repository}|{counter}", amount))

    def note_error(self, pass_id: str, repository: str, error: str) -> None:
        retrying(lambda: self._client.hset(self._hash(pass_id), f"{repository}|error", error[:500]))

    # --- barriers --------------------------------------------------------------------

    def _step_keys(self, pass_id: str, repository: str, step: str) -> tuple[str, str, str, str]:
        base = key("pass", pass_id, repository, step)
        return base + ":done", base + ":count", base + ":total", base + ":failed"

    def open_step(self, pass_id: str, repository: str, step: str, total: int) -> None:
        """Say how many tasks the step has, before enqueuing them."""
        _done, _count, total_key, _failed = self._step_keys(pass_id, repository, step)
        retrying(lambda: self._client.set(total_key, total, ex=KEEP_SECONDS))
        self.set_status(pass_id, repository, step)

    def arrive(
        self, pass_id: str, repository: str, step: str, member: str, *, failed: bool = False
    ) -> tuple[bool, bool]:
        """Record that one task of the step ended: (whether this is its first arrival,
        whether the step is now complete)."""
        done, count, total, failed_key = self._step_keys(pass_id, repository, step)
        if failed:
            retrying(lambda: self._client.sadd(failed_key, member))
            retrying(lambda: self._client.expire(failed_key, KEEP_SECONDS))
        added, reached, expected = retrying(
            lambda: self._arrive(keys=[done, count, total], args=[member, KEEP_SECONDS])
        )
        return bool(added), int(expected) >= 0 and int(reached) >= int(expected)

    def succeeded(self, pass_id: str, repository: str, step: str) -> list[str]:
        """The members that arrived without failing."""
        done, _count, _total, failed_key = self._step_keys(pass_id, repository, step)
        members = retrying(lambda: self._client.sdiff(done, failed_key))
        return sorted(members, key=lambda m: (len(m), m))

    def finish(self, pass_id: str, repository: str, status: str) -> bool:
        """The repository is done for this pass; True the first time only."""
        finished = key("pass", pass_id, "finished")
        added = retrying(lambda: self._client.sadd(finished, repository))
        if not added:
            return False

        def write() -> None:
            pipe = self._client.pipeline()
            pipe.expire(finished, KEEP_SECONDS)
            pipe.hset(self._hash(pass_id), f"{repository}|status", status)
            pipe.hincrby(self._hash(pass_id), "open", -1)
            pipe.execute()

        retrying(write)
        return True

    def progress(self, pass_id: str) -> PassProgress | None:
        data = retrying(lambda: self._client.hgetall(self._hash(pass_id)))
        if not data:
            return None
        repos = [r for r in str(data.get("repositories", "")).split("\n") if r]
        progress = [
            RepoProgress(
                repo,
                str(data.get(f"{repo}|status", "queued")),
                {name: as_int(data.get(f"{repo}|{name}")) for name in COUNTERS},
                data.get(f"{repo}|error"),
            )
            for repo in repos
        ]
        return PassProgress(pass_id, progress, as_int(data.get("open")))
