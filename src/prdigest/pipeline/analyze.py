"""Run the analyzers over stored PRs, caching facts on what they depend on.

A PR's facts are current when their cache key equals ``record hash + analyzer versions``:
the record hash changes when the PR changes (new head SHA, new comments), the versions when
an analyzer's output changes. A second run with nothing new reads one row per PR and
analyzes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.registry import Registry, run_all
from prdigest.analyzers.versions import DEFAULT_VERSIONS, facts_key
from prdigest.models.facts import Facts
from prdigest.models.pullrequest import PullRequest
from prdigest.pipeline.lineage import LineageStats, link_repository
from prdigest.pipeline.origins import OriginStats, blame_fixes, clone_of, stale_origins
from prdigest.store.facts_store import analysis_states, get_facts, save_facts, save_facts_rows, stored_records
from prdigest.store.store import Store

if TYPE_CHECKING:  # the workers module (multiprocessing) is imported only when analysis runs
    from prdigest.pipeline.analyze_workers import Outcome


@dataclass
class AnalyzeStats:
    analyzed: int = 0
    cached: int = 0
    failed: list[str] = field(default_factory=list)
    # The cross-PR pass of each repository with newly analyzed PRs (see pipeline/lineage.py).
    lineage: dict[str, LineageStats] = field(default_factory=dict)
    # Fixes blamed in the clone each repository was synced from (see pipeline/origins.py).
    origins: dict[str, OriginStats] = field(default_factory=dict)


def default_registry() -> Registry:
    from prdigest.analyzers.defaults import default_registry as build

    return build()


def facts_cache_key(record_hash: str, registry: Registry | None = None) -> str:
    """The key under which facts of this record by ``registry`` (default: the default
    analyzers, by their declared versions, without importing them) are current."""
    return facts_key(record_hash, DEFAULT_VERSIONS if registry is None else registry.versions())


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
    jobs: int | None = None,
) -> AnalyzeStats:
    """Analyze every stored PR whose facts are missing or stale (all of them with ``force``).

    ``wanted(repo, number)`` narrows the set (e.g. a date window); ``on_start(total)`` and
    ``on_done(repo, number, outcome)`` feed a progress bar. A PR whose analysis fails is
    reported in ``failed`` and does not stop the others. Records are read and facts written
    a page at a time; ``jobs`` worker processes (default: one per CPU) share the analysis
    when there are enough PRs to repay their start-up, else it runs in this process.
    """
    context = context or AnalysisContext()
    states = analysis_states(store, repository)
    if wanted is not None:
        states = [s for s in states if wanted(s.repository, s.number)]
    stats = AnalyzeStats()
    todo: list[tuple[int, str, str]] = []
    names: dict[int, tuple[str, int]] = {}
    hashes: dict[int, str] = {}  # the record hash each PR is analyzed at (for its search row)
    for state in states:
        key = facts_cache_key(state.record_hash, registry)
        if not force and state.cache_key == key:
            stats.cached += 1
        else:
            todo.append((state.pull_request_id, f"{state.repository}#{state.number}", key))
            names[state.pull_request_id] = (state.repository, state.number)
            hashes[state.pull_request_id] = state.record_hash
    if on_start is not None:
        on_start(len(todo))
    # Oldest first: a PR's old file is then the previous PR's new file, whose parse the
    # symbols analyzer keeps, so it parses only the (incremental) new side.
    todo.sort(key=lambda item: names[item[0]])
    if todo:
        wanting = {repo for repo, _number in names.values() if repo.lower() not in context.import_graphs}
        if wanting:
            from prdigest.pipeline.import_graphs import import_graphs

            context = replace(context, import_graphs={**context.import_graphs, **import_graphs(store, wanting)})
        _analyze_todo(store, todo, names, hashes, stats, registry, context, on_done, jobs)
    # Lineage is redone for what was analyzed, and where stored origins were blamed by an
    # older rule (ORIGINS_VERSION): an upgrade re-blames its fixes without re-analysis.
    repos = {name for name, _number in names.values()} if stats.analyzed else set()
    repos |= {
        r for r in {s.repository for s in states} - repos if stale_origins(store, r) and clone_of(store, r) is not None
    }
    for repo in sorted(repos):
        origins, stats.lineage[repo] = cross_pr_pass(store, repo, jobs=jobs or 2)
        if origins is not None:
            stats.origins[repo] = origins
    return stats


def cross_pr_pass(store: Store, repository: str, *, jobs: int = 2) -> tuple[OriginStats | None, LineageStats]:
    """What one PR's facts know only once the others are analyzed: the fixes blamed in the
    clone (when the repository was synced from one), then the lineage pass."""
    clone = clone_of(store, repository)
    origins = blame_fixes(store, repository, clone, jobs=jobs) if clone is not None else None
    return origins, link_repository(store, repository)


def _analyze_todo(
    store: Store,
    todo: list[tuple[int, str, str]],
    names: dict[int, tuple[str, int]],
    hashes: dict[int, str],
    stats: AnalyzeStats,
    registry: Registry | None,
    context: AnalysisContext,
    on_done: Callable[[str, int, str], None] | None,
    jobs: int | None,
) -> None:
    registry = registry or default_registry()  # imported only when there is something to analyze
    from prdigest.pipeline import analyze_workers as workers
    from prdigest.pipeline.worker_pool import worker_count

    def read(ids: Sequence[int]) -> dict[int, PullRequest]:
        return stored_records(store, ids)

    count = worker_count(jobs, len(todo))
    if count > 1 and workers.can_send(registry, context):
        url = store.url if store.reopenable() else None
        pages = workers.analyze_in_workers(todo, read, registry, context, count, url)
    else:
        pages = workers.analyze_in_process(todo, read, registry, context)
    # closing: an error here (or Ctrl-C) ends the workers now, not when the generator is collected.
    with closing(pages):
        for page in pages:
            _save_page(store, page, names, hashes, stats, on_done)


def _save_page(
    store: Store,
    page: list[tuple[int, Outcome]],
    names: dict[int, tuple[str, int]],
    hashes: dict[int, str],
    stats: AnalyzeStats,
    on_done: Callable[[str, int, str], None] | None,
) -> None:
    """Store one page's facts and search rows (one transaction), then count them."""
    # One transaction with the PRs' search rows: an analysis killed after this page leaves no
    # analyzed PR indexed without its facts.
    save_facts_rows(store, [outcome for _id, outcome in page if not isinstance(outcome, str)], hashes)
    for pull_request_id, outcome in page:
        failed = isinstance(outcome, str)
        if isinstance(outcome, str):
            stats.failed.append(outcome)
        else:
            stats.analyzed += 1
        if on_done is not None:
            repo, number = names[pull_request_id]
            on_done(repo, number, "failed" if failed else "analyzed")


def ensure_facts(
    store: Store,
    repository: str,
    number: int,
    registry: Registry | None = None,
    context: AnalysisContext | None = None,
) -> Facts:
    """The PR's current facts: from the cache, or analyzed and stored now."""
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
    registry = registry or default_registry()
    context = context or AnalysisContext()
    if context.import_graph(repository) is None:
        from prdigest.pipeline.import_graphs import import_graphs

        context = replace(context, import_graphs={**context.import_graphs, **import_graphs(store, [repository])})
    result = run_all(store.get_pr(repository, number), registry, context)
    save_facts(store, state.pull_request_id, result, key)
    return result
