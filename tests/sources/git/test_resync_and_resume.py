"""Idempotent re-sync, incremental sync, and resume after SIGKILL: the database tells."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

from tests.helpers.gitrepo import GitRepoBuilder, write_synthetic_history
from tests.sources.git.conftest import PRDIGEST, RunCli, SyncInProcess, stored_numbers


def dump(db: Path) -> list[str]:
    with sqlite3.connect(db) as connection:
        return list(connection.iterdump())


def test_syncing_twice_leaves_the_database_identical(tmp_path: Path, sync_in_process: SyncInProcess) -> None:
    from prdigest.demo.example_repo import build_example_repository

    path = build_example_repository(tmp_path / "example")
    db = tmp_path / "p.db"
    sync_in_process(path, "--db", db)
    first = dump(db)
    out = sync_in_process(path, "--db", db)
    assert "(0 new, 0 updated" in out
    assert dump(db) == first
    out = sync_in_process(path, "--db", db, "--full")  # re-reads everything, still changes nothing
    assert out.strip().endswith("(0 new, 0 updated, 12 unchanged)")
    assert dump(db) == first


def test_new_commits_are_picked_up_incrementally(tmp_path: Path, sync_in_process: SyncInProcess) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.set_origin("https://github.com/o/n")
    repo.squash_pr(1, "One", {"a": "1\n"})
    db = tmp_path / "p.db"
    sync_in_process(repo.path, "--db", db)
    repo.squash_pr(2, "Two", {"a": "2\n"})
    repo.create_pull_ref(3, {"b": "3\n"})
    out = sync_in_process(repo.path, "--db", db)
    assert "(2 new, 0 updated, 0 unchanged)" in out
    assert stored_numbers(db) == {1: "merged", 2: "merged", 3: "open"}
    # Merging the open PR turns it into a merged record.
    repo.squash_pr(3, "Three", {"b": "3\n"})
    out = sync_in_process(repo.path, "--db", db)
    assert "(0 new, 1 updated, 0 unchanged)" in out
    assert stored_numbers(db)[3] == "merged"


def test_resume_after_kill_completes_with_identical_content(tmp_path: Path, run_cli: RunCli) -> None:
    path = write_synthetic_history(tmp_path / "big", prs=1500)
    killed_db, clean_db = tmp_path / "killed.db", tmp_path / "clean.db"
    env = dict(os.environ, HOME=str(tmp_path))
    process = subprocess.Popen(
        [str(PRDIGEST), "sync", "git", str(path), "--db", str(killed_db)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    committed = 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if killed_db.exists():
            try:
                with sqlite3.connect(killed_db, timeout=0.1) as connection:
                    committed = connection.execute("SELECT count(*) FROM pull_requests").fetchone()[0]
            except sqlite3.Error:
                committed = 0
            if committed >= 200:
                break
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert process.returncode == -signal.SIGKILL, "the sync finished before it could be killed"
    assert 200 <= committed < 1500
    survived = len(stored_numbers(killed_db))
    assert survived >= committed  # nothing committed was lost
    rerun = run_cli("sync", "git", path, "--db", killed_db, check=True)
    assert f"({1500 - survived} new, 0 updated, {survived} unchanged)" in rerun.stdout
    run_cli("sync", "git", path, "--db", clean_db, check=True)
    with sqlite3.connect(killed_db) as a, sqlite3.connect(clean_db) as b:
        query = "SELECT number, record_hash FROM pull_requests ORDER BY number"
        assert a.execute(query).fetchall() == b.execute(query).fetchall()
        state = "SELECT source, state FROM sync_states"
        assert a.execute(state).fetchall() == b.execute(state).fetchall()
