"""A first ``prdigest report`` of an analyzed PR whose narrative is stored is made with sqlite3
(`prdigest.pipeline.quick.quick_report`): it is the normal path's document byte for byte, it
is kept in the report cache, and it steps aside whenever something must be written first."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from tests.helpers.cli import offline_runner, run_ok
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.demo.example_repo import build_example_repository
from prdigest.pipeline.quick import cached_report, quick_report
from prdigest.pipeline.report import rendered_report
from prdigest.store import Store

REPO_SLUG = "example-org/example-project"
CHOICES = [
    (lang, length, fmt) for lang in ("zh", "en") for length in ("full", "brief") for fmt in ("md", "json", "html")
]


@pytest.fixture(scope="module")
def analyzed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's history (reverts, a dependency pin), two later pins of the same package (so
    ledger neighbours) and an unmerged one, synced and analyzed."""
    folder = tmp_path_factory.mktemp("quick_report")
    repo = build_example_repository(folder / "example")
    builder = GitRepoBuilder(repo)
    pins = "requirements/cuda.txt"
    builder.squash_pr(120, "Cap cupy below 15", {pins: "numpy>=1.26\ncupy-cuda13x!=14.1.0,<15\n"})
    builder.squash_pr(121, "Allow cupy 15", {pins: "numpy>=1.27\ncupy-cuda13x!=14.1.0,<16\n"})
    builder.create_pull_ref(122, {pins: "numpy>=1.27\ncupy-cuda13x>=15\n"})
    db = folder / "prdigest.db"
    run_ok(CliRunner(), "sync", "git", str(repo), "--db", str(db))
    run_ok(CliRunner(), "analyze", "--db", str(db))
    return db


@pytest.fixture
def db(analyzed: Path, tmp_path: Path) -> str:
    path = tmp_path / "prdigest.db"
    path.write_bytes(analyzed.read_bytes())
    return str(path)


@pytest.fixture
def runner() -> CliRunner:
    return offline_runner()


def _numbers(db: str) -> list[int]:
    with sqlite3.connect(db) as connection:
        return [int(r[0]) for r in connection.execute("SELECT number FROM pull_requests ORDER BY number")]


def _forget_reports(db: str) -> None:
    with sqlite3.connect(db) as connection:
        connection.execute("DELETE FROM report_cache")  # moves no epoch: nothing a report reads


def _normal(db: str, number: int, choice: tuple[str, str, str]) -> str:
    lang, length, fmt = choice
    with Store.open(f"sqlite:///{db}") as store:
        return rendered_report(store, REPO_SLUG, number, lang, length, fmt, None)  # type: ignore[arg-type]


def _narratives(db: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as connection:
        return connection.execute(
            "SELECT pull_request_id, lang, length, cache_key, narrator, model, body, tokens_in, tokens_out, calls, "
            "seconds FROM narratives ORDER BY pull_request_id, lang, length, cache_key"
        ).fetchall()


def test_every_report_of_every_pr_equals_the_normal_one(runner: CliRunner, db: str, tmp_path: Path) -> None:
    """From an analyzed database without narratives: the quick path narrates, stores the
    narrative and the document; the normal path, on a copy, does the same work."""
    normal_db = tmp_path / "normal.db"
    normal_db.write_bytes(Path(db).read_bytes())
    numbers = _numbers(db)
    assert {101, 104, 105, 120, 121, 122} <= set(numbers)
    for number in numbers:
        for choice in CHOICES:
            expected = _normal(str(normal_db), number, choice)
            made = quick_report(db, REPO_SLUG, number, *choice)
            assert made == expected, (number, choice)
            assert cached_report(db, REPO_SLUG, number, *choice) == expected  # and kept
            _forget_reports(db)  # the next one is made again, from the stored narrative
            assert quick_report(db, REPO_SLUG, number, *choice) == expected
    # The narratives stored are the normal path's, row for row.
    assert _narratives(db) == _narratives(str(normal_db))
    # What the command prints is that document too.
    _forget_reports(db)
    assert run_ok(runner, "report", f"{REPO_SLUG}#104", "--db", db) == _normal(
        str(normal_db), 104, ("zh", "full", "md")
    )


def test_the_demo_history_exercises_related_work_and_the_ledger(db: str) -> None:
    """The comparison above covers reverts (related notes both ways) and dependency pins
    placed in the ledger, not only PRs without them."""
    seen_related = seen_ledger = False
    for number in _numbers(db):
        report = json.loads(_normal(db, number, ("en", "full", "json")))
        seen_related = seen_related or bool(report.get("related"))
        history = report["dependency_history"]
        seen_ledger = seen_ledger or any(item["previous"] or item["next"] for item in history)
    assert seen_related
    assert seen_ledger


def test_it_steps_aside_when_something_must_be_written_first(db: str) -> None:
    choice = ("en", "full", "md")
    assert quick_report(db, REPO_SLUG, 103, *choice) is not None
    # Facts older than the record: the normal path analyzes again first.
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE pull_requests SET record_hash = 'changed' || record_hash WHERE number = 103")
    assert quick_report(db, REPO_SLUG, 103, *choice) is None
    # Not stored, another repository, a URL: the normal path says what is wrong or reads it.
    assert quick_report(db, REPO_SLUG, 9999, *choice) is None
    assert quick_report(db, "other/repo", 103, *choice) is None
    assert quick_report(f"sqlite:///{db}", REPO_SLUG, 104, *choice) is None


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes a read-only file")
def test_a_read_only_database_is_read_not_written(db: str, tmp_path: Path) -> None:
    choice = ("zh", "full", "json")
    expected = _normal(str(_copy(db, tmp_path / "normal.db")), 106, choice)
    before = _narratives(db)
    Path(db).chmod(0o444)
    try:
        assert quick_report(db, REPO_SLUG, 106, *choice) == expected
    finally:
        Path(db).chmod(0o644)
    assert _narratives(db) == before
    assert cached_report(db, REPO_SLUG, 106, *choice) is None


def _copy(db: str, to: Path) -> Path:
    to.write_bytes(Path(db).read_bytes())
    return to


def test_a_report_made_on_a_moved_snapshot_is_not_kept(db: str) -> None:
    """Another process writing between the read and the save: the document is still right for
    what it read, but it is not cached under an epoch it was not made in."""
    from prdigest.store import quick

    choice = ("zh", "brief", "md")
    expected = _normal(db, 105, choice)
    _forget_reports(db)
    with quick.reading(Path(db)) as connection:
        assert connection is not None
        inputs = quick.report_inputs(connection, REPO_SLUG, 105)
        assert inputs is not None
        with sqlite3.connect(db) as other:
            other.execute("UPDATE repositories SET full_name = full_name")  # a write: the epoch moves
        assert not quick.save_report(connection, inputs.pr_id, choice, "code", expected)
    assert cached_report(db, REPO_SLUG, 105, *choice) is None
