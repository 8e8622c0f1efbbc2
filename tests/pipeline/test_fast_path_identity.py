"""The fast analysis path (pages, batched writes, worker processes, caches) stores exactly
the facts a plain one-PR-at-a-time `run_all` produces."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.registry import run_all
from prdigest.analyzers.symbols.tree_cache import TREES
from prdigest.demo.synthetic import write_synthetic_history
from prdigest.pipeline.analyze import analyze_stored, cross_pr_pass, default_registry, facts_cache_key
from prdigest.pipeline.worker_pool import MIN_PARALLEL, worker_count
from prdigest.store.facts_store import FactsRow, all_links, analysis_states, get_facts, save_facts, save_facts_rows
from prdigest.store.read_models import facets_by_repository
from prdigest.store.store import Store

PRS = 2 * MIN_PARALLEL  # enough for jobs=2 to really start two workers (see the test below)


@pytest.fixture(scope="module")
def synced_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("history")
    repo = write_synthetic_history(root / "repo", PRS, files=12, lines=40)
    db = root / "synced.db"
    subprocess.run(
        [sys.executable, "-m", "prdigest", "sync", "git", str(repo), "--db", str(db)],
        check=True,
        capture_output=True,
    )
    return db


def _copy(db: Path, tmp_path: Path, name: str = "copy.db") -> Store:
    target = tmp_path / name
    target.write_bytes(db.read_bytes())
    return Store.open(f"sqlite:///{target}")


def _reference(db: Path, tmp_path: Path) -> dict[tuple[str, int], str]:
    """Facts JSON per PR on the plain path: run_all one PR at a time, newest first and with
    no parse kept between PRs, each saved alone, then the cross-PR pass `analyze_stored` ends
    with (it may link the synthetic PRs, which name each other)."""
    registry = default_registry()
    with _copy(db, tmp_path, "reference.db") as store:
        states = sorted(analysis_states(store), key=lambda s: -s.number)
        for state in states:
            TREES.clear()
            facts = run_all(store.get_pr(state.repository, state.number), registry, AnalysisContext())
            save_facts(store, state.pull_request_id, facts, facts_cache_key(state.record_hash, registry))
        TREES.clear()
        for repository in sorted({s.repository for s in states}):
            cross_pr_pass(store, repository)
        return _stored(store)


def _stored(store: Store) -> dict[tuple[str, int], str]:
    found: dict[tuple[str, int], str] = {}
    for state in analysis_states(store):
        facts = get_facts(store, state.repository, state.number)
        assert facts is not None
        found[(state.repository, state.number)] = facts.model_dump_json()
    return found


def test_the_history_is_large_enough_for_two_workers() -> None:
    assert worker_count(2, PRS) == 2


@pytest.mark.parametrize("jobs", [1, 2])
def test_fast_path_stores_the_reference_facts(synced_db: Path, tmp_path: Path, jobs: int) -> None:
    expected = _reference(synced_db, tmp_path)
    with _copy(synced_db, tmp_path) as store:
        done: list[tuple[str, int, str]] = []
        stats = analyze_stored(store, force=True, jobs=jobs, on_done=lambda r, n, o: done.append((r, n, o)))
        assert stats.analyzed == PRS
        assert not stats.failed
        assert sorted((r, n) for r, n, _o in done) == sorted(expected)
        assert _stored(store) == expected
        registry = default_registry()
        for state in analysis_states(store):
            assert state.cache_key == facts_cache_key(state.record_hash, registry)
        again = analyze_stored(store, jobs=jobs)
        assert (again.analyzed, again.cached) == (0, PRS)


def test_batched_writes_match_one_transaction_per_pr(synced_db: Path, tmp_path: Path) -> None:
    """Labels and links written in one batch are those `save_facts` writes PR by PR."""
    with _copy(synced_db, tmp_path) as store:
        registry = default_registry()
        states = analysis_states(store)
        results = {
            s.pull_request_id: run_all(store.get_pr(s.repository, s.number), registry, AnalysisContext())
            for s in states
        }
        for state in states:
            save_facts(store, state.pull_request_id, results[state.pull_request_id], "k")
        one_by_one = all_links(store, states[0].repository)
        assert one_by_one, "the synthetic PRs mention each other"
        from prdigest.store.facts_store import facts_row

        rows: list[FactsRow] = [facts_row(pid, facts, "k") for pid, facts in results.items()]
        save_facts_rows(store, rows)
        save_facts_rows(store, rows[:5])  # replacing some again changes nothing
        assert all_links(store, states[0].repository) == one_by_one
        counted = facets_by_repository(store)[states[0].repository]
        labels = sum(label.count for label in (*counted.risks, *counted.modules))
        assert labels == sum(len(row.labels) for row in rows)
