"""The limits every worker shares through a real Redis: the sync lock, the LLM slots, the
GitHub gate (two clients stand for two worker processes)."""

from __future__ import annotations

import threading
import time

import pytest
from tests.workers.conftest import RedisServer

from prdigest.workers import limits
from prdigest.workers.connection import redis_client


def test_the_sync_lock_is_held_by_one_worker_and_freed_after(broker: RedisServer) -> None:
    first, second = redis_client(broker.url), redis_client(broker.url)
    with limits.repository_lock(first, "org/a") as mine:
        assert mine
        with limits.repository_lock(second, "org/a") as theirs:
            assert not theirs  # busy: the second worker leaves the sync to the first
        with limits.repository_lock(second, "org/b") as other:
            assert other  # another repository is not blocked
    with limits.repository_lock(second, "org/a") as now:
        assert now


def test_a_lock_whose_holder_died_expires(broker: RedisServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "HOLD_SECONDS", 1)
    client = redis_client(broker.url)
    client.set("prdigest:lock:sync:org/a", "a-killed-worker", ex=1)  # what a kill -9 leaves
    with limits.repository_lock(client, "org/a") as mine:
        assert not mine
    time.sleep(1.2)
    with limits.repository_lock(client, "org/a") as mine:
        assert mine


def test_a_held_lock_outlives_its_time_to_live(broker: RedisServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "HOLD_SECONDS", 1)
    first, second = redis_client(broker.url), redis_client(broker.url)
    with limits.repository_lock(first, "org/a") as mine:
        assert mine
        time.sleep(1.6)  # the heartbeat extends it
        with limits.repository_lock(second, "org/a") as theirs:
            assert not theirs


def test_llm_slots_bound_concurrency_across_clients(broker: RedisServer) -> None:
    lock = threading.Lock()
    state = {"in": 0, "peak": 0}

    def narrate() -> None:
        client = redis_client(broker.url)  # a connection per "worker"
        with limits.llm_slot(client, 3):
            with lock:
                state["in"] += 1
                state["peak"] = max(state["peak"], state["in"])
            time.sleep(0.1)
            with lock:
                state["in"] -= 1

    threads = [threading.Thread(target=narrate) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert state["peak"] == 3
    assert redis_client(broker.url).zcard("prdigest:llm:slots") == 0


def test_a_slot_of_a_killed_worker_ages_out(broker: RedisServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "HOLD_SECONDS", 1)
    client = redis_client(broker.url)
    seconds, micros = client.time()
    client.zadd("prdigest:llm:slots", {"killed": seconds + micros / 1e6 + 0.5})
    start = time.monotonic()
    with limits.llm_slot(client, 1):
        waited = time.monotonic() - start
    assert 1.0 < waited < 5


def test_a_429_seen_by_one_worker_pauses_the_other(broker: RedisServer) -> None:
    one = limits.RedisRateGate(redis_client(broker.url), "token-a")
    other = limits.RedisRateGate(redis_client(broker.url), "token-a")
    different_token = limits.RedisRateGate(redis_client(broker.url), "token-b")
    one.pause(1.0, "secondary rate limit")
    assert 0.5 < other.paused_for() <= 1.0
    assert different_token.paused_for() == 0
    time.sleep(1.0)
    assert other.paused_for() == 0
    assert "token-a" not in " ".join(redis_client(broker.url).keys("*"))  # only a digest is stored


def test_an_exhausted_budget_pauses_until_the_reset(broker: RedisServer) -> None:
    client = redis_client(broker.url)
    gate = limits.RedisRateGate(client, "t", reserve=20)
    now = float(client.time()[0])
    gate.observe(remaining=500, reset_at=now + 3000)
    assert gate.paused_for() == 0
    gate.observe(remaining=10, reset_at=now + 3000)
    assert gate.paused_for() > 2900
    assert limits.RedisRateGate(redis_client(broker.url), "t").paused_for() > 2900  # another worker
    gate.pause(1, "a shorter pause does not end a longer one")
    assert gate.paused_for() > 2900
