"""Failed work is retried with backoff, then parked with its error (CLI and web); the
scheduler (Celery beat) runs passes over the followed repositories on its own."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.workers.conftest import REPOSITORY, RedisServer, Workers, make_history, prdigest_env, run_cli

pytestmark = pytest.mark.slow


def test_failed_work_is_retried_then_parked_and_shown(
    tmp_path: Path, broker: RedisServer, workers: Callable[[dict[str, str]], Workers]
) -> None:
    clone = make_history(tmp_path / "clone", 3)
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    env = prdigest_env(db, broker.url)
    run_cli(["follow", "add", "org/gone", "--git", str(clone)], env)
    shutil.rmtree(clone)  # the clone disappears: every sync of it fails
    workers(env).start("--concurrency", "1")
    done = subprocess.run(
        [sys.executable, "-m", "prdigest", "follow", "run", "--wait", "--timeout", "120"],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "org/gone: failed" in done.stdout
    assert "error: sync" in done.stderr
    status = run_cli(["queue", "status"], env)
    assert "sync              0        0       1" in status, status
    assert "parked: sync org/gone after 2 tries" in status  # the first try and one retry
    assert "not a git" in status.lower() or "no such" in status.lower() or "does not exist" in status.lower()
    assert "last error of org/gone:" in status
    assert "failed" in run_cli(["follow", "list"], env)

    from fastapi.testclient import TestClient

    from prdigest.config import load_settings
    from prdigest.store import Store
    from prdigest.web import create_app

    with Store.open(db) as store, TestClient(create_app(store, load_settings(env))) as client:
        page = client.get("/queue?lang=en")
        assert page.status_code == 200
        assert "org/gone" in page.text
        assert "Parked work" in page.text
        parked = client.get("/queue.json").json()["parked"]
        assert [(p["task"], p["repository"], p["attempts"]) for p in parked] == [("sync", "org/gone", 2)]


def test_the_scheduler_runs_due_repositories(
    tmp_path: Path, broker: RedisServer, workers: Callable[[dict[str, str]], Workers]
) -> None:
    clone = make_history(tmp_path / "clone", 4)
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    env = prdigest_env(db, broker.url)
    run_cli(["follow", "add", REPOSITORY, "--git", str(clone), "--lang", "en", "--every", "1h"], env)
    workers(env).start("--concurrency", "1")
    with (tmp_path / "beat.log").open("wb") as log:
        beat = subprocess.Popen(
            [sys.executable, "-m", "prdigest", "scheduler", "--tick", "1", "--schedule-file", str(tmp_path / "beat")],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 120
        while " ok" not in (listing := run_cli(["follow", "list"], env)):
            assert time.monotonic() < deadline, listing + (tmp_path / "beat.log").read_text()
            time.sleep(1)
        from prdigest.store import Store

        with Store.open(db) as store:
            assert store.count_prs(REPOSITORY) == 4
        time.sleep(3)  # ticks go on; the repository is not due again for an hour
        assert len(broker.client().keys("prdigest:pass:*:finished")) == 1
    finally:
        os.killpg(beat.pid, signal.SIGTERM)
        beat.wait(timeout=20)
