"""``analyze --jobs 2`` never leaves worker processes behind: not after a normal run, not
after Ctrl-C, not after a ``kill -9`` of the parent (the kernel ends the workers)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from tests.faults.conftest import run
from tests.faults.processes import alive, gone_within, start_in_own_group
from tests.faults.processes import workers as workers_of

from prdigest.demo.synthetic import write_synthetic_history

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the process table from /proc")


@pytest.fixture(scope="module")
def synced_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("workers")
    history = write_synthetic_history(base / "repo", prs=120, files=60, lines=60)
    db = base / "prdigest.db"
    assert run("sync", "git", str(history), "--no-contents", "--db", str(db)).code == 0
    return db


def _start_and_wait_for_workers(db: Path) -> tuple[subprocess.Popen[str], set[int]]:
    process = start_in_own_group("analyze", "--all", "--jobs", "2", "--db", str(db))
    deadline = time.monotonic() + 120
    workers: set[int] = set()
    while time.monotonic() < deadline and process.poll() is None:
        workers = workers_of(process.pid)
        if len(workers) == 2:
            return process, workers
        time.sleep(0.05)
    process.kill()
    process.communicate()
    pytest.fail(f"the two workers never showed (exit {process.poll()})")


@pytest.mark.slow
def test_kill_9_of_the_parent_ends_the_workers(synced_db: Path) -> None:
    process, workers = _start_and_wait_for_workers(synced_db)
    os.kill(process.pid, signal.SIGKILL)
    process.communicate()
    try:
        # A worker still starting (importing) ends once it starts: it finds its parent gone.
        assert gone_within(workers, 90), "workers outlived their parent"
    finally:
        for pid in workers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.slow
def test_ctrl_c_ends_the_workers(synced_db: Path) -> None:
    process, workers = _start_and_wait_for_workers(synced_db)
    os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole group
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err, err
    assert gone_within(workers, 10)


@pytest.mark.slow
def test_a_normal_run_leaves_no_process(synced_db: Path) -> None:
    process, workers = _start_and_wait_for_workers(synced_db)
    _out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    assert gone_within(workers, 5)
