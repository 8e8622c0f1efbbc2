"""The search index is written with the data: a PR is searchable right after ``sync``, and an
``analyze`` killed part-way leaves no PR out of search and none indexed without its facts."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

from tests.faults.conftest import clean_env, command, run

from prdigest.store import Store
from prdigest.store.search_store import reindex, search


def _titles(db: Path) -> dict[int, str]:
    with sqlite3.connect(db) as connection:
        return {int(n): str(t) for n, t in connection.execute("SELECT number, title FROM pull_requests")}


def _every_pr_found(db: Path) -> None:
    store = Store.open(f"sqlite:///{db}", create=False)
    try:
        for number, title in _titles(db).items():
            assert number in {hit.number for hit in search(store, title, limit=100)}, (number, title)
    finally:
        store.close()


def test_a_synced_pr_is_searchable_at_once(tmp_path: Path, small_history: Path) -> None:
    db = tmp_path / "prdigest.db"
    assert run("sync", "git", str(small_history), "--no-contents", "--db", str(db)).code == 0
    _every_pr_found(db)  # no analyze, no server start in between


def test_a_killed_analyze_leaves_nothing_out_of_search(tmp_path: Path, small_history: Path) -> None:
    db = tmp_path / "prdigest.db"
    assert run("sync", "git", str(small_history), "--db", str(db)).code == 0
    process = subprocess.Popen(
        command("analyze", "--jobs", "1", "--db", str(db)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=clean_env(),
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        with sqlite3.connect(db) as connection:
            if connection.execute("SELECT count(*) FROM facts").fetchone()[0] > 0:
                break
        time.sleep(0.02)
    if process.poll() is None:
        os.kill(process.pid, signal.SIGKILL)
    process.wait()
    _every_pr_found(db)
    store = Store.open(f"sqlite:///{db}", create=False)
    try:
        # Every row already matches its record and stored facts: nothing was left to index.
        assert reindex(store).indexed == 0
    finally:
        store.close()
