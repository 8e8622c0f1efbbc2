"""A git history synced and analyzed into a fresh SQLite store, and the facts read back: the
set-up of the tests that check analyzers through the real pipeline."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.models.facts import Facts
from prdigest.pipeline.analyze_selected import AnalyzeRequest, analyze_selected
from prdigest.pipeline.sync import sync_source
from prdigest.sources.git import GitSource, GitSyncOptions
from prdigest.store import Store
from prdigest.store.facts_store import get_facts


def analyzed_history(repo: GitRepoBuilder, repository: str, database: Path) -> Store:
    """`repo` synced as `repository` into the SQLite file `database`, every PR analyzed."""
    return analyze_history(Store.open(f"sqlite:///{database}"), repo, repository)


def analyze_history(store: Store, repo: GitRepoBuilder, repository: str) -> Store:
    """`repo` synced as `repository` into an open `store` (any backend), every PR analyzed; the
    clone's origin is the repository's GitHub URL, as a real clone's is."""
    repo.set_origin(f"https://github.com/{repository}.git")
    sync_source(store, GitSource(repo.path, GitSyncOptions(repository=repository)))
    assert analyze_selected(store, AnalyzeRequest()).failed == []
    return store


def stored_facts(store: Store, repository: str, number: int) -> Facts:
    found = get_facts(store, repository, number)
    assert found is not None
    return found


def reason_codes(facts: Facts) -> set[str]:
    return {r.code for r in facts.verdict.reasons}
