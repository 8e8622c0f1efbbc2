"""``prdigest sync git CLONE --db EXISTING.db`` with nothing new answers with sqlite3 alone
(no SQLAlchemy), leaves the file byte-identical and prints what the store's path prints;
whenever anything could be written it steps aside and the store does the work."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from tests.helpers.cli import run_in_fresh_process
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.cli.main import cli
from prdigest.pipeline.quick import nothing_to_sync
from prdigest.pipeline.sync import sync_source
from prdigest.sources.git import GitSource, GitSyncOptions
from prdigest.sources.git.clone import GitClone
from prdigest.store import Store, quick


def _history(path: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(path)
    repo.commit({"README.md": "# demo\n", "app/core.py": "def run():\n    return 1\n"}, "Initial commit")
    repo.squash_pr(1, "Fix the cache", {"app/core.py": "def run():\n    return 2\n"}, body="Fixes #3.")
    repo.merge_pr(2, "alice/feature", "Add the feature", {"app/feature.py": "X = 'naïve'\n"})
    repo.create_pull_ref(5, {"app/wip.py": "def wip():\n    pass\n"})
    repo.set_origin("https://github.com/example-org/example-project.git")
    return repo


def _sync(clone: Path, db: str) -> str:
    result = CliRunner().invoke(cli, ["sync", "git", str(clone), "--db", db], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def _sync_in_process(clone: Path, db: str, home: Path) -> tuple[str, bool, bool]:
    """The CLI's output, and whether it loaded SQLAlchemy and pydantic (a fresh interpreter)."""
    output, loaded = run_in_fresh_process(["sync", "git", str(clone), "--db", db], home, ("sqlalchemy", "pydantic"))
    return output, loaded["sqlalchemy"], loaded["pydantic"]


def _files(db: Path) -> dict[str, bytes]:
    """The database and its companions, byte for byte."""
    return {p.name: p.read_bytes() for p in sorted(db.parent.glob(db.name + "*"))}


def _tables(path: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(path) as connection:
        names = [n for (n,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        dumped = {}
        for name in names:
            try:
                dumped[name] = connection.execute(f'SELECT rowid, * FROM "{name}" ORDER BY rowid').fetchall()
            except sqlite3.OperationalError:  # WITHOUT ROWID
                dumped[name] = sorted(connection.execute(f'SELECT * FROM "{name}"').fetchall())
    return dumped


def _pair(tmp_path: Path, repo: GitRepoBuilder) -> tuple[Path, Path]:
    """A synced database, and a copy the store's path (a URL) will sync."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    quick_db, store_db = tmp_path / "a" / "p.db", tmp_path / "b" / "p.db"
    _sync(repo.path, str(quick_db))
    shutil.copy(quick_db, store_db)
    return quick_db, store_db


def test_nothing_new_is_answered_without_sqlalchemy_and_writes_nothing(tmp_path: Path) -> None:
    repo = _history(tmp_path / "repo")
    quick_db, store_db = _pair(tmp_path, repo)
    before = _files(quick_db)
    output, sqlalchemy, pydantic = _sync_in_process(repo.path, str(quick_db), tmp_path)
    assert not sqlalchemy
    assert not pydantic  # nor the record models: the clone is read without them
    assert _files(quick_db) == before
    # The store's path (a URL is never taken the quick way) prints the same and writes nothing either.
    reference, sqlalchemy, _pydantic = _sync_in_process(repo.path, f"sqlite:///{store_db}", tmp_path)
    assert sqlalchemy
    assert output == reference.replace(str(store_db), str(quick_db))
    assert output.startswith("synced 0 pull requests from ")
    assert _files(store_db) == {name: data for name, data in before.items()}


def test_a_new_pr_is_still_found_and_stored_as_the_store_stores_it(tmp_path: Path) -> None:
    repo = _history(tmp_path / "repo")
    quick_db, store_db = _pair(tmp_path, repo)
    repo.squash_pr(6, "Add tests", {"tests/test_core.py": "def test():\n    assert True\n"})
    source = GitSource(repo.path, GitSyncOptions())
    try:
        assert nothing_to_sync(str(quick_db), source) is None
        assert [pr.number for pr in source.pull_requests(_saved_state(quick_db))] == [6]
    finally:
        source.close()
    output, sqlalchemy, _pydantic = _sync_in_process(repo.path, str(quick_db), tmp_path)
    assert sqlalchemy  # the store wrote it
    assert "(1 new, 0 updated, 0 unchanged)" in output
    _sync(repo.path, f"sqlite:///{store_db}")
    assert _tables(quick_db) == _tables(store_db)


def test_a_moved_open_ref_is_read_again(tmp_path: Path) -> None:
    repo = _history(tmp_path / "repo")
    quick_db, store_db = _pair(tmp_path, repo)
    repo.create_pull_ref(5, {"app/wip.py": "def wip():\n    return 1\n"})  # the PR got a new commit
    assert _check(str(quick_db), repo, GitSyncOptions()) is None
    assert "(0 new, 1 updated, 0 unchanged)" in _sync(repo.path, str(quick_db))
    _sync(repo.path, f"sqlite:///{store_db}")
    assert _tables(quick_db) == _tables(store_db)


def test_a_stale_search_row_is_left_to_the_store(tmp_path: Path) -> None:
    repo = _history(tmp_path / "repo")
    quick_db, store_db = _pair(tmp_path, repo)
    for db in (quick_db, store_db):  # as a sync killed between its write and its indexing leaves it
        with sqlite3.connect(db) as connection:
            connection.execute("DELETE FROM pr_search WHERE rowid = (SELECT MIN(id) FROM pull_requests)")
    assert _check(str(quick_db), repo, GitSyncOptions()) is None
    _sync(repo.path, str(quick_db))
    _sync(repo.path, f"sqlite:///{store_db}")
    assert _tables(quick_db) == _tables(store_db)
    assert len(_tables(quick_db)["pr_search"]) == 3
    assert _check(str(quick_db), repo, GitSyncOptions()) == quick_db.resolve()


def test_partial_syncs_and_other_states_take_the_normal_path(tmp_path: Path) -> None:
    repo = _history(tmp_path / "repo")
    quick_db, _store_db = _pair(tmp_path, repo)
    db = str(quick_db)
    assert _check(db, repo, GitSyncOptions()) == quick_db.resolve()
    assert _check(db, repo, GitSyncOptions(limit=1)) is None
    assert _check(db, repo, GitSyncOptions(with_contents=False)) is None
    assert _check(db, repo, GitSyncOptions(repository="other/name")) is None
    assert _check(str(tmp_path / "missing.db"), repo, GitSyncOptions()) is None
    with sqlite3.connect(quick_db) as connection:  # a state saved in another spelling is saved again
        (state,) = connection.execute("SELECT state FROM sync_states WHERE source = 'git'").fetchone()
        connection.execute("UPDATE sync_states SET state = ? WHERE source = 'git'", (state.replace(", ", ",", 1),))
    source = GitSource(repo.path, GitSyncOptions())
    try:
        assert nothing_to_sync(db, source) is None
        # Declining left the source as it was: the sync then counts the open ref once.
        assert list(source.pull_requests(_saved_state(quick_db))) == []
        assert source.counters.open_refs == 1
    finally:
        source.close()
    assert "(0 new, 0 updated, 0 unchanged)" in _sync(repo.path, db)
    assert _check(db, repo, GitSyncOptions()) == quick_db.resolve()


def test_an_older_schema_is_left_to_the_store(tmp_path: Path) -> None:
    repo = _history(tmp_path / "repo")
    quick_db, _store_db = _pair(tmp_path, repo)
    with sqlite3.connect(quick_db) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0006_report_cache'")
    assert _check(str(quick_db), repo, GitSyncOptions()) is None


def _check(db: str, repo: GitRepoBuilder, options: GitSyncOptions) -> Path | None:
    clone = GitClone(repo.path, options)
    try:
        return nothing_to_sync(db, clone)
    finally:
        clone.close()  # a git log the check started for the sync that would follow


def _saved_state(db: Path) -> dict[str, object]:
    with quick.reading(db) as connection:
        assert connection is not None
        saved = quick.saved_sync_state(connection, "example-org/example-project", "git")
    assert saved is not None
    state: dict[str, object] = json.loads(saved)
    return state


def test_where_a_sync_starts_is_found_without_the_record_models(tmp_path: Path) -> None:
    """So a first sync starts ``git log`` before pydantic and the models load."""
    repo = _history(tmp_path / "repo")
    script = (
        "import sys\n"
        "from prdigest.sources.git.clone import GitClone, GitSyncOptions\n"
        f"clone = GitClone(__import__('pathlib').Path({str(repo.path)!r}), GitSyncOptions())\n"
        "clone.start_log()\n"
        "loaded = 'pydantic' in sys.modules\n"
        "from prdigest.sources.git.source import GitSource\n"
        "source = GitSource.taking_over(clone)\n"
        "print(loaded, [pr.number for pr in source.pull_requests()])\n"
        "source.close()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False [5, 2, 1]"


def test_git_log_started_by_the_check_is_used_or_dropped(tmp_path: Path) -> None:
    """Declining, the check starts git log of the new commits while the store loads; a
    sync resuming from another state (another process synced meanwhile) drops it."""
    repo = _history(tmp_path / "repo")
    quick_db, store_db = _pair(tmp_path, repo)
    repo.squash_pr(6, "Add tests", {"tests/test_core.py": "def test():\n    assert True\n"})
    used = GitClone(repo.path, GitSyncOptions())
    assert nothing_to_sync(str(quick_db), used) is None
    source = GitSource.taking_over(used)
    started = source._log  # the new commits only, already running
    assert started is not None
    assert started.revision_range == f"{_saved_state(quick_db)['tip']}..{source.tip}"
    try:
        with Store.open(f"sqlite:///{quick_db}") as store:
            stats = sync_source(store, source)
    finally:
        source.close()
    assert (stats.inserted, stats.updated) == (1, 0)
    assert started._process.returncode == 0  # read to its end, not stopped
    _sync(repo.path, f"sqlite:///{store_db}")
    assert _tables(quick_db) == _tables(store_db)

    repo.squash_pr(7, "Add more tests", {"tests/test_more.py": "def test():\n    assert 1\n"})
    dropped = GitClone(repo.path, GitSyncOptions())
    assert nothing_to_sync(str(quick_db), dropped) is None
    _sync(repo.path, str(quick_db))  # another process syncs first
    source = GitSource.taking_over(dropped)
    try:
        with Store.open(f"sqlite:///{quick_db}") as store:
            stats = sync_source(store, source)
    finally:
        source.close()
    assert (stats.inserted, stats.updated, stats.total) == (0, 0, 0)
    _sync(repo.path, f"sqlite:///{store_db}")
    assert _tables(quick_db) == _tables(store_db)
