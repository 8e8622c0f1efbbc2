"""Read commands on a database they may not write: a read-only file system, with and without
the write-ahead log beside the file. They read (nothing cached is stored); writers say why not."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from tests.faults.conftest import assert_one_line_error, remount, run

REPO = "example-org/synthetic"


@pytest.fixture(scope="module")
def analyzed_db(tmp_path_factory: pytest.TempPathFactory, small_history: Path) -> Path:
    db = tmp_path_factory.mktemp("analyzed") / "prdigest.db"
    assert run("sync", "git", str(small_history), "--no-contents", "--db", str(db)).code == 0
    assert run("analyze", "--db", str(db)).code == 0
    return db


def _copy_with_log(source: Path, target_dir: Path) -> Path:
    """The database as a writer that was still running left it: file, -wal and -shm."""
    target = target_dir / source.name
    holder = sqlite3.connect(source)  # keeps the log from being folded in and removed
    try:
        holder.execute("PRAGMA wal_autocheckpoint=0")
        holder.execute("CREATE TABLE IF NOT EXISTS wal_probe (x)")  # a committed page in the log
        holder.commit()
        for suffix in ("", "-wal", "-shm"):
            shutil.copyfile(f"{source}{suffix}", f"{target}{suffix}")
    finally:
        holder.close()
    return target


@pytest.mark.parametrize("with_log", [False, True], ids=["clean", "wal-left-behind"])
def test_read_commands_work_on_a_read_only_file_system(analyzed_db: Path, scratch_mount: Path, with_log: bool) -> None:
    if with_log:
        db = _copy_with_log(analyzed_db, scratch_mount)
        assert Path(f"{db}-wal").stat().st_size > 0
    else:
        db = scratch_mount / "prdigest.db"
        shutil.copyfile(analyzed_db, db)
    expected = run("list", "--db", str(analyzed_db)).out
    remount(scratch_mount, "ro")
    listed = run("list", "--db", str(db))
    assert listed.code == 0, listed.err
    assert listed.out == expected
    assert run("show", f"{REPO}#3", "--db", str(db)).code == 0
    report = run("report", f"{REPO}#3", "--no-llm", "--db", str(db))
    assert report.code == 0, report.err
    feed = run("feed", REPO, "--no-llm", "--db", str(db))
    assert feed.code == 0, feed.err
    assert feed.out.count("\n## ") == 24  # every PR
    # A writer says exactly what is wrong, in one line.
    line = assert_one_line_error(run("analyze", "--all", "--db", str(db)), 4)
    assert "read-only" in line


def test_writes_to_a_read_only_database_file_are_one_line(analyzed_db: Path, scratch_mount: Path) -> None:
    db = scratch_mount / "prdigest.db"
    shutil.copyfile(analyzed_db, db)
    remount(scratch_mount, "ro")
    for args in (["analyze", "--all"], ["sync", "git", str(analyzed_db.parent)]):
        result = run(*args, "--db", str(db))
        if args[0] == "sync":
            assert result.code in (3, 4), result.err  # not a git repository, or the database
            continue
        assert "read-only" in assert_one_line_error(result, 4)
