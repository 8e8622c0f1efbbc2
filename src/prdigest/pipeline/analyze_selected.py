"""Analyze a selection of stored PRs (a repository, a date window) with optional file rules and
known dependency versions, then refresh the search index: the whole ``prdigest analyze`` job.

With a package-index URL the analysis takes two passes: which packages to ask the index about
is only known once the PRs are analyzed, so their releases are fetched after the first pass
and the PRs that change them are analyzed again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from prdigest.analyzers.context import AnalysisContext
from prdigest.pipeline.analyze import AnalyzeStats, analyze_stored
from prdigest.store.store import Store

Wanted = Callable[[str, int], bool]


@dataclass(frozen=True)
class AnalyzeRequest:
    repository: str | None = None  # only this repository
    since: datetime | None = None  # only PRs merged (or opened) on or after
    force: bool = False  # analyze every selected PR, even those with current facts
    rules: dict[str, object] | None = None  # per-repository file rules, when given
    known_versions: dict[str, list[str]] | None = None  # released versions, when given
    versions_index: str | None = None  # a PyPI-style JSON API URL to ask for them instead
    jobs: int | None = None  # worker processes (None: one per CPU)


def analyze_selected(
    store: Store,
    request: AnalyzeRequest,
    *,
    on_start: Callable[[int], None] | None = None,
    on_done: Callable[[str, int, str], None] | None = None,
) -> AnalyzeStats:
    """Analyze the selected PRs whose facts are missing or stale; ``on_start(total)`` and
    ``on_done(repo, number, outcome)`` feed a progress bar for the first pass."""
    # Cached facts are keyed by the PR record and the analyzer versions, not by rules or known
    # versions: a run that brings its own must redo the PRs it selects, or it would report them
    # "already current" and keep facts made without them. (An index gets its own second pass.)
    force = request.force or request.rules is not None or request.known_versions is not None
    rules = request.rules or {}
    context = AnalysisContext(rules=rules, known_versions=request.known_versions or {})
    wanted = _window(store, request.repository, request.since)
    done: set[tuple[str, int]] = set()

    def advance(repo: str, number: int, outcome: str) -> None:
        if outcome == "analyzed":
            done.add((repo, number))
        if on_done is not None:
            on_done(repo, number, outcome)

    stats = analyze_stored(
        store,
        repository=request.repository,
        force=force,
        context=context,
        wanted=wanted,
        on_start=on_start,
        on_done=advance,
        jobs=request.jobs,
    )
    if request.versions_index is not None:
        again, failed = _reanalyze_with_index(store, request, rules, wanted)
        # A PR redone in the second pass is counted once; if it was "already current" in
        # the first, it is not any more.
        fresh = again - done
        stats.analyzed += len(fresh)
        stats.cached -= len(fresh)
        stats.failed.extend(failed)
    _reindex_search(store, request.repository)
    return stats


def _window(store: Store, repository: str | None, since: datetime | None) -> Wanted | None:
    if since is None:
        return None
    keep = {(row.repository, row.number) for row in store.list_prs(repository=repository, since=since)}

    def wanted(repo: str, number: int) -> bool:
        return (repo, number) in keep

    return wanted


def _reanalyze_with_index(
    store: Store, request: AnalyzeRequest, rules: dict[str, object], wanted: Wanted | None
) -> tuple[set[tuple[str, int]], list[str]]:
    """The second pass: fetch the releases of the packages the selected PRs change, then redo
    those PRs. Returns the PRs analyzed again and the failures."""
    from prdigest.analyzers.dependencies.known_versions import fetch_known_versions
    from prdigest.store.facts_store import analysis_states, get_facts

    assert request.versions_index is not None
    touched: set[tuple[str, int]] = set()
    packages: set[str] = set()
    for state in analysis_states(store, request.repository):
        if wanted is not None and not wanted(state.repository, state.number):
            continue
        found = get_facts(store, state.repository, state.number)
        if found is not None and found.dependencies.changes:
            touched.add((state.repository, state.number))
            packages.update(change.package for change in found.dependencies.changes)
    if not touched:
        return set(), []
    versions = fetch_known_versions(request.versions_index, packages)
    again: set[tuple[str, int]] = set()

    def record(repo: str, number: int, outcome: str) -> None:
        if outcome == "analyzed":
            again.add((repo, number))

    stats = analyze_stored(
        store,
        repository=request.repository,
        force=True,
        context=AnalysisContext(rules=rules, known_versions=versions),
        wanted=lambda repo, number: (repo, number) in touched,
        on_done=record,
        jobs=request.jobs,
    )
    return again, stats.failed


def _reindex_search(store: Store, repository: str | None) -> None:
    from importlib.util import find_spec

    if find_spec("prdigest.store.search_store") is None:
        return
    from prdigest.store import search_store

    search_store.reindex(store, repository)
