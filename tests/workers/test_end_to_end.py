"""Follow → real worker processes → feed, over a generated history, a real redis-server and a
local fake LLM; the data must equal what one process makes, whatever happens to the workers
(kill -9 mid-task) or the broker (a restart mid-run)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.workers.conftest import (
    REPOSITORY,
    FakeLLM,
    RedisServer,
    Workers,
    make_history,
    prdigest_env,
    run_cli,
    stored_data,
)

pytestmark = pytest.mark.slow

PRS = 12


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_history(tmp_path_factory.mktemp("history") / "repo", PRS)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory, history: Path) -> dict[str, Any]:
    """The data of a single-process `follow run` (no broker) with the same fake LLM answers."""
    pytest.importorskip("openai")
    folder = tmp_path_factory.mktemp("reference")
    db = f"sqlite:///{folder / 'db.sqlite'}"
    llm = FakeLLM()
    try:
        env = prdigest_env(db, None, llm)
        run_cli(
            ["follow", "add", REPOSITORY, "--git", str(history), "--lang", "en", "--publish", "site"], env, cwd=folder
        )
        run_cli(["follow", "run"], env, cwd=folder)
    finally:
        llm.close()
    return {"data": stored_data(db), "site": _site(folder / "site")}


def _site(folder: Path) -> dict[str, object]:
    """The published files; in JSON ones the seconds an LLM call took (a timing) are left out."""
    files: dict[str, object] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            files[str(path.relative_to(folder))] = (
                _without_seconds(json.loads(path.read_bytes())) if path.suffix == ".json" else path.read_bytes()
            )
    return files


def _without_seconds(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_seconds(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [_without_seconds(v) for v in value]
    return value


def _pass_id(output: str) -> str:
    match = re.search(r"queued pass (\S+)", output)
    assert match, output
    return match.group(1)


def _wait_for_pass(broker_url: str, pass_id: str, timeout: float = 180) -> Any:
    from prdigest.workers.connection import redis_client
    from prdigest.workers.passes import Passes

    passes = Passes(redis_client(broker_url))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        progress = passes.progress(pass_id)
        if progress is not None and progress.done:
            return progress
        time.sleep(0.3)
    raise AssertionError(f"pass {pass_id} not done after {timeout} s")


def _follow(env: dict[str, str], folder: Path, history: Path) -> None:
    run_cli(["follow", "add", REPOSITORY, "--git", str(history), "--lang", "en", "--publish", "site"], env, cwd=folder)


def test_follow_workers_feed(
    tmp_path: Path,
    history: Path,
    reference: dict[str, Any],
    broker: RedisServer,
    fake_llm: FakeLLM,
    workers: Callable[[dict[str, str]], Workers],
) -> None:
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    env = prdigest_env(db, broker.url, fake_llm)  # LLM concurrency 2 across every worker
    _follow(env, tmp_path, history)
    group = workers(env)
    group.start("--concurrency", "2")
    group.start("--concurrency", "2")
    out = run_cli(["follow", "run", "--wait", "--timeout", "240"], env, cwd=tmp_path)
    assert f"{REPOSITORY}: ok; {PRS} PRs new or updated, {PRS} analyzed, {2 * PRS} narratives written" in out, (
        out + group.log_text()
    )
    assert stored_data(db) == reference["data"]
    assert _site(tmp_path / "site") == reference["site"]
    assert 1 <= fake_llm.peak <= 2  # four pool processes, two LLM slots
    narrators = {narrative[4]["narrator"] for narrative in reference["data"]["narratives"]}
    assert narrators == {"llm"}  # narrated through the fake LLM
    feed = run_cli(["feed", REPOSITORY, "--lang", "en"], env)
    assert feed.count("\n## ") == PRS
    status = run_cli(["queue", "status"], env)
    assert re.search(r"analyze\s+0\s+0\s+0", status), status
    again = run_cli(["follow", "run", "--wait"], env, cwd=tmp_path)  # nothing new
    assert f"{REPOSITORY}: ok; 0 PRs new or updated, 0 analyzed, 0 narratives written" in again


def test_kill_9_of_a_worker_mid_task_loses_nothing(
    tmp_path: Path,
    history: Path,
    reference: dict[str, Any],
    broker: RedisServer,
    workers: Callable[[dict[str, str]], Workers],
) -> None:
    pytest.importorskip("openai")
    llm = FakeLLM(latency=0.4)
    try:
        db = f"sqlite:///{tmp_path / 'db.sqlite'}"
        env = prdigest_env(db, broker.url, llm)
        _follow(env, tmp_path, history)
        group = workers(env)
        victim = group.start("--concurrency", "1")
        group.start("--concurrency", "1")
        pass_id = _pass_id(run_cli(["follow", "run"], env, cwd=tmp_path))
        deadline = time.monotonic() + 120
        while not (llm.calls >= 3 and llm.in_flight >= 2):  # both workers are mid-narration
            assert time.monotonic() < deadline, group.log_text()
            time.sleep(0.02)
        group.kill9(victim)
        progress = _wait_for_pass(broker.url, pass_id)
        assert [r.status for r in progress.repositories] == ["ok"], group.log_text()
        assert stored_data(db) == reference["data"]  # every PR, no duplicate facts or narratives
        assert _site(tmp_path / "site") == reference["site"]
    finally:
        llm.close()


def test_a_broker_restart_mid_run(
    tmp_path: Path,
    history: Path,
    reference: dict[str, Any],
    persistent_broker: RedisServer,
    fake_llm: FakeLLM,
    workers: Callable[[dict[str, str]], Workers],
) -> None:
    fake_llm.latency = 0.2
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    env = prdigest_env(db, persistent_broker.url, fake_llm)
    _follow(env, tmp_path, history)
    group = workers(env)
    group.start("--concurrency", "2")
    pass_id = _pass_id(run_cli(["follow", "run"], env, cwd=tmp_path))
    deadline = time.monotonic() + 120
    while fake_llm.calls < 2:  # analysis done, narration under way
        assert time.monotonic() < deadline, group.log_text()
        time.sleep(0.02)
    persistent_broker.stop()
    time.sleep(1.0)
    persistent_broker.start()
    progress = _wait_for_pass(persistent_broker.url, pass_id)
    assert [r.status for r in progress.repositories] == ["ok"], group.log_text()
    assert stored_data(db) == reference["data"]
    assert _site(tmp_path / "site") == reference["site"]


def test_two_workers_asked_to_sync_one_repository(
    tmp_path: Path,
    broker: RedisServer,
    workers: Callable[[dict[str, str]], Workers],
) -> None:
    """Two passes at once: the two workers each take one sync; the lock lets one through."""
    big = make_history(tmp_path / "big", 400)
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    env = prdigest_env(db, broker.url)
    run_cli(["follow", "add", REPOSITORY, "--git", str(big), "--lang", "en"], env)
    group = workers(env)
    group.start("--concurrency", "1", "--queues", "sync")
    group.start("--concurrency", "1", "--queues", "sync")
    group.wait_ready()  # both idle and listening
    from prdigest.config import load_settings
    from prdigest.workers.app import Runtime, make_app
    from prdigest.workers.connection import redis_client
    from prdigest.workers.passes import Passes
    from prdigest.workers.tasks import start_pass

    runtime = Runtime(load_settings(env), db)
    app = make_app(runtime)
    first = start_pass(app, runtime, [REPOSITORY])  # two passes at once, as two schedulers might
    second = start_pass(app, runtime, [REPOSITORY])

    passes = Passes(redis_client(broker.url))
    deadline = time.monotonic() + 120
    while True:
        states = sorted(passes.progress(p).repositories[0].status for p in (first, second))  # type: ignore[union-attr]
        if "busy" in states and "syncing" not in states:
            break
        assert time.monotonic() < deadline, (states, group.log_text())
        time.sleep(0.2)
    # One pass found the repository locked and left it to the other, which synced it once
    # and went on to the analysis (no worker takes that queue here).
    assert states == ["analyze", "busy"], group.log_text()
    assert "busy" in run_cli(["follow", "list"], env) or "queued" in run_cli(["follow", "list"], env)
    from prdigest.store import Store

    with Store.open(db) as store:
        assert store.count_prs(REPOSITORY) == 400


@pytest.fixture
def postgres_url() -> Iterator[str]:
    from tests.conftest import _postgres_database

    yield from _postgres_database()


@pytest.mark.postgres
def test_workers_over_postgresql(
    tmp_path: Path,
    history: Path,
    postgres_url: str,
    broker: RedisServer,
    workers: Callable[[dict[str, str]], Workers],
) -> None:
    """Two workers writing one PostgreSQL database make what one process makes on SQLite."""
    single = f"sqlite:///{tmp_path / 'single.sqlite'}"
    alone = prdigest_env(single, None)
    run_cli(["follow", "add", REPOSITORY, "--git", str(history), "--lang", "zh,en"], alone)
    run_cli(["follow", "run"], alone)
    env = prdigest_env(postgres_url, broker.url)
    run_cli(["follow", "add", REPOSITORY, "--git", str(history), "--lang", "zh,en"], env)
    group = workers(env)
    group.start("--concurrency", "2")
    group.start("--concurrency", "2")
    out = run_cli(["follow", "run", "--wait", "--timeout", "240"], env)
    assert f"{REPOSITORY}: ok; {PRS} PRs new or updated, {PRS} analyzed, {4 * PRS} narratives written" in out, (
        out + group.log_text()
    )
    assert stored_data(postgres_url) == stored_data(single)
