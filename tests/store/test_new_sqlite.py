"""A sync into a new SQLite file (sqlite3, no SQLAlchemy) stores exactly what the store stores."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from tests.helpers.cli import run_in_fresh_process
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.cli.main import cli
from prdigest.models.pullrequest import PullRequest
from prdigest.sources.git import GitSource, GitSyncOptions
from prdigest.store import Store
from prdigest.store.new_sqlite import NewSqliteFile
from prdigest.store.search_store import reindex


def _history(path: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(path)
    repo.commit({"README.md": "# demo\n", "app/core.py": "def run():\n    return 1\n"}, "Initial commit")
    repo.squash_pr(1, "Fix the cache", {"app/core.py": "def run():\n    return 2\n"}, body="Fixes #3.")
    repo.merge_pr(2, "alice/feature", "Add the feature", {"app/feature.py": "X = 'naïve'\n"}, body="Long body.")
    repo.squash_pr(3, "修复缓存的问题", {"app/core.py": "def run():\n    return 3\n", "pyproject.toml": "[project]\n"})
    repo.squash_pr(3, "修复缓存的问题", {})  # an empty commit reusing the number: a collision
    repo.squash_pr(4, "Remove the feature", {"app/feature.py": None, "logo.png": b"\x89PNG\x00\x01"})
    repo.create_pull_ref(5, {"app/wip.py": "def wip():\n    pass\n"})
    repo.set_origin("https://github.com/example-org/example-project.git")
    return repo


def _tables(path: Path) -> dict[str, Any]:
    """Every table (the search index's shadow tables too) row by row, and the schema."""
    with sqlite3.connect(path) as connection:
        dumped: dict[str, Any] = {
            "schema": connection.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
        }
        for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
            try:
                rows = connection.execute(f'SELECT rowid, * FROM "{name}" ORDER BY rowid').fetchall()
            except sqlite3.OperationalError:  # WITHOUT ROWID
                rows = sorted(connection.execute(f'SELECT * FROM "{name}"').fetchall())
            dumped[name] = rows
    return dumped


def _sync(clone: Path, db: str) -> None:
    result = CliRunner().invoke(cli, ["sync", "git", str(clone), "--db", db], catch_exceptions=False)
    assert result.exit_code == 0, result.output


def test_a_first_sync_into_a_new_file_stores_what_the_store_stores(tmp_path: Path) -> None:
    repo = _history(tmp_path / "repo")
    new, reference = tmp_path / "new.db", tmp_path / "reference.db"
    _sync(repo.path, str(new))  # a new file named by its path: written with sqlite3
    _sync(repo.path, f"sqlite:///{reference}")  # a URL: the store
    assert _tables(new) == _tables(reference)
    assert len(_tables(new)["pull_requests"]) == 5
    # A second sync (nothing new, then one new PR) goes through the store for both.
    _sync(repo.path, str(new))
    _sync(repo.path, f"sqlite:///{reference}")
    repo.squash_pr(6, "Add tests", {"tests/test_core.py": "def test():\n    assert True\n"})
    _sync(repo.path, str(new))
    _sync(repo.path, f"sqlite:///{reference}")
    assert _tables(new) == _tables(reference)
    assert len(_tables(new)["pull_requests"]) == 6


def _records(clone: Path) -> list[PullRequest]:
    return list(GitSource(clone, GitSyncOptions(repository="example-org/example-project")).pull_requests())


def test_batches_updates_and_repeats_store_what_the_store_stores(tmp_path: Path) -> None:
    repo = _history(tmp_path / "repo")
    records = _records(repo.path)
    changed = records[1].model_copy(update={"title": "A new title"})
    # Small batches; a record twice in one batch (the later wins), then changed in a later batch.
    stream = [*records[:2], records[0], *records[2:], changed, records[3]]
    new = NewSqliteFile.create(tmp_path / "new.db")
    assert new is not None
    with new:
        stats = new.upsert_prs(stream, batch_size=3)
        new.reindex_search("example-org/example-project", {pr.number for pr in records})
        new.set_sync_state("example-org/example-project", "git", {"tip": "abc"})
        assert new.get_pr("example-org/example-project", changed.number) == changed
        assert new.get_sync_state("example-org/example-project", "git") == {"tip": "abc"}
    with Store.open(f"sqlite:///{tmp_path / 'reference.db'}") as store:
        expected = store.upsert_prs(stream, batch_size=3)
        reindex(store, "example-org/example-project", indexed={pr.number for pr in records})
        store.set_sync_state("example-org/example-project", "git", {"tip": "abc"})
    assert stats == expected
    assert (stats.inserted, stats.updated, stats.unchanged) == (5, 1, 1)  # a repeat in one batch counts once
    assert _tables(tmp_path / "new.db") == _tables(tmp_path / "reference.db")


def _journal(path: Path) -> str:
    """The file's journal mode (kept in its header)."""
    with sqlite3.connect(path) as connection:
        return str(connection.execute("PRAGMA journal_mode").fetchone()[0])


def test_a_new_file_is_filled_without_wal_and_left_in_wal(tmp_path: Path) -> None:
    repo = _history(tmp_path / "repo")
    new = NewSqliteFile.create(tmp_path / "new.db")
    assert new is not None
    with new:
        # While it fills: a rollback journal (pages written once), and no -wal beside it.
        new.upsert_prs(_records(repo.path))
        assert not (tmp_path / "new.db-wal").exists()
    assert _journal(tmp_path / "new.db") == "wal"  # as the store leaves its files
    _sync(repo.path, str(tmp_path / "synced.db"))
    assert _journal(tmp_path / "synced.db") == "wal"


def test_an_existing_file_is_left_to_the_store(tmp_path: Path) -> None:
    path = tmp_path / "there.db"
    Store.open(f"sqlite:///{path}").close()
    assert NewSqliteFile.create(path) is None


def test_a_failed_first_sync_leaves_no_file(tmp_path: Path) -> None:
    empty = GitRepoBuilder(tmp_path / "empty")
    empty.commit({"README.md": "x\n"}, "Initial commit")  # no pull request anywhere
    db = tmp_path / "none.db"
    result = CliRunner().invoke(cli, ["sync", "git", str(empty.path), "--db", str(db)])
    assert result.exit_code != 0
    assert not db.exists()


def test_a_first_sync_into_a_new_file_loads_neither_sqlalchemy_nor_the_models(tmp_path: Path) -> None:
    repo = _history(tmp_path / "repo")  # a collision and an open PR included
    args = ["sync", "git", str(repo.path), "--db", str(tmp_path / "n.db")]
    _output, loaded = run_in_fresh_process(args, tmp_path, ("sqlalchemy", "pydantic"))
    assert loaded == {"sqlalchemy": False, "pydantic": False}
