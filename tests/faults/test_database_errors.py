"""Database failures: one ``error:`` line, exit 4, no SQL, no parameters, no record text."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.faults.conftest import assert_one_line_error, run

STORE_EXIT = 4


def test_unknown_url_scheme_is_one_line() -> None:
    line = assert_one_line_error(run("list", "--db", "foo://bar"), STORE_EXIT)
    assert "unsupported database URL scheme 'foo'" in line


def test_a_file_that_is_not_sqlite_says_so(tmp_path: Path) -> None:
    db = tmp_path / "notes.db"
    db.write_text("these are my notes, not a database\n" * 200)
    for args in (["list"], ["analyze"], ["sync", "git", str(tmp_path)]):
        result = run(*args, "--db", str(db))
        if args[0] == "sync":  # not a git repository: the source fails first (exit 3)
            continue
        line = assert_one_line_error(result, STORE_EXIT)
        assert line == f"error: {db} is not a SQLite database"
    assert db.read_text().startswith("these are my notes")  # untouched


def test_read_commands_never_create_a_database(tmp_path: Path) -> None:
    missing = tmp_path / "nonexistent" / "dir" / "x.db"
    for args in (["list"], ["show", "a/b#1"], ["feed", "a/b"], ["facts", "a/b#1"], ["analyze"]):
        line = assert_one_line_error(run(*args, "--db", str(missing)), STORE_EXIT)
        assert f"no database at {missing}" in line
    assert not (tmp_path / "nonexistent").exists()


def test_a_sync_that_finds_no_pull_requests_leaves_no_database(tmp_path: Path, small_history: Path) -> None:
    from tests.helpers.gitrepo import GitRepoBuilder

    plain = GitRepoBuilder(tmp_path / "plain")
    plain.commit({"README.md": "# nothing merged here\n"}, "Initial commit")
    db = tmp_path / "new" / "prdigest.db"
    result = run("sync", "git", str(tmp_path / "plain"), "--repo", "example/plain", "--db", str(db))
    assert result.code == 3, result.err  # no PR-shaped commits: a source error
    assert not db.exists()
    assert not Path(f"{db}-wal").exists()
    # A window with nothing in it: the same.
    result = run("sync", "git", str(small_history), "--since", "2100-01-01", "--db", str(db))
    assert result.code == 3, result.err
    assert not db.exists()
    assert not db.parent.joinpath("prdigest.db-wal").exists()


def test_a_dropped_table_is_one_line(tmp_path: Path, small_history: Path) -> None:
    db = tmp_path / "prdigest.db"
    assert run("sync", "git", str(small_history), "--db", str(db)).code == 0
    with sqlite3.connect(db) as connection:
        connection.execute("DROP TABLE fact_labels")
    line = assert_one_line_error(run("analyze", "--db", str(db)), STORE_EXIT)
    assert "lacks a table prdigest needs" in line
    assert "no such table: fact_labels" in line
    assert "INSERT" not in line
    assert "SELECT" not in line
    assert "[parameters" not in line


def test_disk_full_is_one_line_and_keeps_what_was_stored(
    tmp_path: Path, small_history: Path, scratch_mount: Path
) -> None:
    db = scratch_mount / "prdigest.db"
    first = run("sync", "git", str(small_history), "--limit", "2", "--no-contents", "--db", str(db))
    assert first.code == 0, first.err
    before = run("list", "--db", str(db), "--json").out
    filler = scratch_mount / "filler"
    _fill(filler)
    result = run("sync", "git", str(small_history), "--full", "--db", str(db))
    line = assert_one_line_error(result, STORE_EXIT)
    assert "disk holding the database is full" in line
    # No record text (titles, bodies, diffs) and no SQL in the message.
    assert "Improve" not in result.err
    assert "INSERT" not in result.err
    assert "UPDATE" not in result.err
    filler.unlink()
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    after = run("list", "--db", str(db), "--json")
    assert after.code == 0
    assert after.out == before


def _fill(path: Path) -> None:
    """Fill the file system, then give back a few KiB (room to start, not to finish)."""
    import os

    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)
    os.truncate(path, max(0, path.stat().st_size - 8 * 4096))
