"""The analyze use case as ``prdigest analyze`` runs it: selection, forcing, the index pass."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from tests.e2e.pypi_server import serve_pypi
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.pipeline.analyze_selected import AnalyzeRequest, analyze_selected
from prdigest.pipeline.sync import sync_source
from prdigest.sources.git import GitSource, GitSyncOptions
from prdigest.store import Store
from prdigest.store.facts_store import get_facts

REPO = "example-org/service"


@pytest.fixture
def deps_store(tmp_path: Path, store: Store) -> Store:
    """Its own history: #1 pins requests, #2 bumps it, #3 changes no dependency."""
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# service\n"}, "Initial commit")
    repo.squash_pr(1, "Pin requests", {"requirements.txt": "requests==2.31.0\n"}, date=_day(2))
    repo.squash_pr(2, "Bump requests", {"requirements.txt": "requests>=2.32.0\n"}, date=_day(3))
    repo.squash_pr(3, "Document the service", {"README.md": "# service\n\nServes.\n"}, date=_day(4))
    sync_source(store, GitSource(repo.path, GitSyncOptions(repository=REPO)))
    return store


def _day(day: int) -> datetime:
    return datetime(2024, 1, day, 12, 0, tzinfo=UTC)


def _counts(store: Store, request: AnalyzeRequest) -> tuple[int, int]:
    stats = analyze_selected(store, request)
    assert stats.failed == []
    return stats.analyzed, stats.cached


def test_only_stale_facts_are_analyzed_unless_forced(deps_store: Store) -> None:
    store = deps_store
    assert _counts(store, AnalyzeRequest()) == (3, 0)
    assert _counts(store, AnalyzeRequest()) == (0, 3)
    assert _counts(store, AnalyzeRequest(force=True)) == (3, 0)


def test_rules_or_known_versions_redo_the_selection(deps_store: Store) -> None:
    store = deps_store
    analyze_selected(store, AnalyzeRequest())
    assert _counts(store, AnalyzeRequest(rules={})) == (3, 0)
    assert _counts(store, AnalyzeRequest(known_versions={"requests": ["2.31.0", "2.32.0"]})) == (3, 0)


def test_since_narrows_the_selection(deps_store: Store) -> None:
    store = deps_store
    since = _day(4)
    assert _counts(store, AnalyzeRequest(since=since)) == (1, 0)
    assert get_facts(store, REPO, 3) is not None
    assert get_facts(store, REPO, 2) is None


def test_an_index_redoes_the_prs_that_change_its_packages(deps_store: Store) -> None:
    store = deps_store
    progress: list[str] = []
    with serve_pypi({"requests": ["2.31.0", "2.32.0", "2.32.3"]}) as index:
        stats = analyze_selected(
            store,
            AnalyzeRequest(versions_index=index.base_url),
            on_start=lambda total: progress.append(f"start {total}"),
            on_done=lambda repo, number, outcome: progress.append(f"{number} {outcome}"),
        )
    changed = {n for n in (1, 2, 3) if (facts := get_facts(store, REPO, n)) and facts.dependencies.changes}
    assert 2 in changed
    assert 3 not in changed
    # Each PR counted once, though the ones changing requests were analyzed twice.
    assert (stats.analyzed, stats.cached) == (3, 0)
    assert index.requests == ["/pypi/requests/json"]
    assert progress[0] == "start 3"  # the progress callbacks follow the first pass
