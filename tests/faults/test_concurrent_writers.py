"""Several processes writing one database at once end with the data one process would write.

Phase one: N ``sync git`` of one history start together on a database that does not exist
yet (migrations, repository row, every PR row race). Phase two: N ``analyze`` and a re-sync
run together (facts, labels, links and search rows of the same PRs race). The result is
compared, table by table, with a single sync and analyze of the same history.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from tests.conftest import _postgres_database
from tests.faults.conftest import clean_env, command, run

from prdigest.store import Store
from prdigest.store.testing import engine_of

WRITERS = 3


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def two_databases(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(a database for the concurrent run, one for the single-process reference)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/concurrent.db", f"sqlite:///{tmp_path}/reference.db"
        return
    first, second = _postgres_database(), _postgres_database()
    try:
        yield next(first), next(second)
    finally:
        for generator in (first, second):
            generator.close()


def _at_once(*commands: list[str]) -> list[tuple[int, str]]:
    processes = [
        subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=clean_env())
        for args in commands
    ]
    results = []
    for process in processes:
        _out, err = process.communicate(timeout=600)
        results.append((process.returncode, err))
    return results


def _snapshot(url: str) -> dict[str, Any]:
    """Every table's content, keyed by PR number (row ids differ between runs)."""
    store = Store.open(url, create=False)
    try:
        search_key = "s.rowid" if url.startswith("sqlite") else "s.pull_request_id"
        queries = {
            "repositories": "SELECT full_name FROM repositories",
            "pull_requests": "SELECT number, record_hash, title FROM pull_requests",
            "sync_states": "SELECT source, state FROM sync_states",
            "facts": "SELECT p.number, f.cache_key, f.verdict, f.body FROM facts f "
            "JOIN pull_requests p ON p.id = f.pull_request_id",
            "fact_labels": "SELECT p.number, l.kind, l.value FROM fact_labels l "
            "JOIN pull_requests p ON p.id = l.pull_request_id",
            "pr_links": "SELECT p.number, k.target_repository, k.target_number, k.relation, k.found_in "
            "FROM pr_links k JOIN pull_requests p ON p.id = k.pull_request_id",
            "pr_search": "SELECT p.number, s.stamp, s.title FROM pr_search s "
            f"JOIN pull_requests p ON p.id = {search_key}",
        }
        with engine_of(store).connect() as connection:
            return {name: sorted(tuple(row) for row in connection.execute(text(sql))) for name, sql in queries.items()}
    finally:
        store.close()


@pytest.mark.slow
def test_concurrent_syncs_and_analyses_equal_one_process(small_history: Path, two_databases: tuple[str, str]) -> None:
    concurrent, reference = two_databases
    sync = command("sync", "git", str(small_history), "--db", concurrent)
    analyze = command("analyze", "--jobs", "1", "--db", concurrent)
    for code, err in _at_once(*[sync] * WRITERS):
        assert code == 0, err
    for code, err in _at_once(*[analyze] * WRITERS, sync):
        assert code == 0, err
    assert run("sync", "git", str(small_history), "--db", reference).code == 0
    assert run("analyze", "--db", reference).code == 0
    got, expected = _snapshot(concurrent), _snapshot(reference)
    assert len(expected["pull_requests"]) == 24
    assert len(expected["facts"]) == 24
    for table in expected:
        assert got[table] == expected[table], table
