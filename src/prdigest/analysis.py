"""Run the analyzers over stored PRs, caching facts on what they depend on.

A PR's facts are current when their cache key equals ``record hash + analyzer versions``:
the record hash changes when the PR changes (new head SHA, new comments), the versions when
an analyzer's output changes. A second run with nothing new reads one row per PR and
analyzes nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.registry import Registry, run_all
from prdigest.models.facts import FACTS_SCHEMA_VERSION, Facts
from prdigest.store.facts_store import analysis_states, get_facts, save_facts
from prdigest.store.store import Store


@dataclass
class AnalyzeStats:
    analyzed: int = 0
    cached: int = 0
    failed: list[str] = field(default_factory=list)


def default_registry() -> Registry:
    from prdigest.analyzers.defaults import default_registry as build

    return build()


def facts_cache_key(record_hash: str, registry: Registry) -> str:
    versions = json.dumps({"schema": FACTS_SCHEMA_VERSION, **registry.versions()}, sort_keys=True)
    return f"{record_hash[:32]}:{hashlib.sha256(versions.encode()).hexdigest()[:16]}"


def analyze_stored(
    store: Store,
    *,
    repository: str | None = None,
    force: bool = False,
    registry: Registry | None = None,
    context: AnalysisContext | None = None,
    wanted: Callable[[str, int], bool] | None = None,
    on_start: Callable[[int], None] | None = None,
    on_done: Callable[[str, int, str], None] | None = None,
) -> AnalyzeStats:
    """Analyze every stored PR whose facts are missing or stale (all of them with ``force``).

    ``wanted(repo, number)`` narrows the set (e.g. a date window); ``on_start(total)`` and
    ``on_done(repo, number, outcome)`` feed a progress bar. A PR whose analysis fails is
    reported in ``failed`` and does not stop the others.
    """
    from prdigest.errors import AnalysisError

    registry = registry or default_registry()
    context = context or AnalysisContext()
    states = analysis_states(store, repository)
    if wanted is not None:
        states = [s for s in states if wanted(s.repository, s.number)]
    stats = AnalyzeStats()
    todo = []
    for state in states:
        key = facts_cache_key(state.record_hash, registry)
        if not force and state.cache_key == key:
            stats.cached += 1
        else:
            todo.append((state, key))
    if on_start is not None:
        on_start(len(todo))
    for state, key in todo:
        pr = store.get_pr(state.repository, state.number)
        try:
            result = run_all(pr, registry, context)
        except AnalysisError as exc:
            stats.failed.append(str(exc))
            if on_done is not None:
                on_done(state.repository, state.number, "failed")
            continue
        save_facts(store, state.pull_request_id, result, key)
        stats.analyzed += 1
        if on_done is not None:
            on_done(state.repository, state.number, "analyzed")
    return stats


def ensure_facts(
    store: Store,
    repository: str,
    number: int,
    registry: Registry | None = None,
    context: AnalysisContext | None = None,
) -> Facts:
    """The PR's current facts: from the cache, or analyzed and stored now."""
    registry = registry or default_registry()
    states = analysis_states(store, repository, number)
    if not states:
        from prdigest.errors import NotFound

        raise NotFound(f"no pull request {repository}#{number} in the database")
    state = states[0]
    key = facts_cache_key(state.record_hash, registry)
    if state.cache_key == key:
        cached = get_facts(store, repository, number)
        if cached is not None:
            return cached
    result = run_all(store.get_pr(repository, number), registry, context or AnalysisContext())
    save_facts(store, state.pull_request_id, result, key)
    return result
