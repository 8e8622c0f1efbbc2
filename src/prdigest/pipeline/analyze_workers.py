"""Analyze pages of stored PRs, in this process or in worker processes on the other cores.

A worker is sent the ids of a page of PRs and reads their records from the database itself
(when it can open it: not an in-memory one, whose records go to it as JSON instead); facts
come back as `FactsRow` values and only the main process writes. So the main process never
holds a record, and a worker holds one page. Each worker gets one contiguous run of the
PRs (oldest first): consecutive PRs often touch the same files, and the analyzers keep
small per-process caches (parsed trees, classified paths) that then hit. A worker is
fed at most two pages ahead, so memory stays flat however many PRs there are.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Generator, Sequence
from contextlib import closing
from dataclasses import dataclass
from typing import Any

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.registry import Registry
from prdigest.errors import AnalysisError
from prdigest.models.pullrequest import PullRequest
from prdigest.pipeline.worker_pool import run_pages
from prdigest.store.facts_store import FactsRow

PAGE_SIZE = 25
# A worker's page is smaller: it holds the page's records and outcomes at once, and the
# biggest pages (PRs carrying whole large files) set the worker's peak memory.
WORKER_PAGE_SIZE = 8


@dataclass(frozen=True)
class Task:
    """One PR to analyze: where its facts go, its cache key, its record."""

    pull_request_id: int
    ref: str
    cache_key: str
    record: PullRequest


# The outcome per task: its facts, or the message of the `AnalysisError` that stopped it.
Outcome = FactsRow | str
ReadRecords = Callable[[Sequence[int]], dict[int, PullRequest]]
Page = list[tuple[int, str, str]]  # (pull_request_id, ref, cache_key)


def analyze_task(task: Task, registry: Registry, context: AnalysisContext) -> Outcome:
    """Analyze one record; an `AnalysisError` becomes its message (the others go on)."""
    from prdigest.analyzers.registry import run_all
    from prdigest.store.facts_store import facts_row

    try:
        result = run_all(task.record, registry, context)
    except AnalysisError as exc:
        return str(exc)
    return facts_row(task.pull_request_id, result, task.cache_key, task.record)


def _tasks(page: Page, read: ReadRecords) -> list[Task]:
    records = read([item[0] for item in page])
    missing = [ref for pr_id, ref, _key in page if pr_id not in records]
    if missing:
        from prdigest.errors import NotFound

        raise NotFound(f"no pull request {missing[0]} in the database")
    return [Task(pr_id, ref, key, records[pr_id]) for pr_id, ref, key in page]


def analyze_in_process(
    items: Sequence[tuple[int, str, str]], read: ReadRecords, registry: Registry, context: AnalysisContext
) -> Generator[list[tuple[int, Outcome]], None, None]:
    """Pages of (pull request id, outcome), analyzed here, oldest first."""
    for start in range(0, len(items), PAGE_SIZE):
        tasks = _tasks(list(items[start : start + PAGE_SIZE]), read)
        yield [(task.pull_request_id, analyze_task(task, registry, context)) for task in tasks]
        del tasks


def can_send(registry: Registry, context: AnalysisContext) -> bool:
    """Whether the registry and context can go to another process (a lambda analyzer cannot)."""
    try:
        pickle.dumps((registry, context))
    except (pickle.PicklingError, TypeError, AttributeError):
        return False
    return True


class AnalyzeWorker:
    """What an analysis worker process runs (`worker_pool.PageWorker`): each page is tasks,
    or with ``url`` (a database other processes can open) PR ids whose records it reads."""

    def __init__(self, registry: Registry, context: AnalysisContext, url: str | None) -> None:
        self.registry = registry
        self.context = context
        self.url = url
        self.store: Any = None  # opened in the worker, at its first page

    def page(self, work: Any) -> list[Outcome]:
        if self.url is not None:  # ids: read the page here
            if self.store is None:
                from prdigest.store.store import Store

                self.store = Store.open(self.url, create=False, read_only_ok=True)
            work = _tasks(work, _reader(self.store))
        return [analyze_task(t, self.registry, self.context) for t in work]

    def close(self) -> None:
        if self.store is not None:
            self.store.close()


def _reader(store: Any) -> ReadRecords:
    from prdigest.store.facts_store import stored_records

    def read(ids: Sequence[int]) -> dict[int, PullRequest]:
        return stored_records(store, ids)

    return read


def _segments(items: Sequence[tuple[int, str, str]], count: int) -> list[list[Page]]:
    """``count`` contiguous runs of the items, each cut into pages."""
    size, extra = divmod(len(items), count)
    runs: list[list[Page]] = []
    start = 0
    for index in range(count):
        end = start + size + (1 if index < extra else 0)
        run = list(items[start:end])
        runs.append([run[i : i + WORKER_PAGE_SIZE] for i in range(0, len(run), WORKER_PAGE_SIZE)])
        start = end
    return runs


def analyze_in_workers(
    items: Sequence[tuple[int, str, str]],
    read: ReadRecords,
    registry: Registry,
    context: AnalysisContext,
    jobs: int,
    url: str | None = None,
) -> Generator[list[tuple[int, Outcome]], None, None]:
    """Pages of (pull request id, outcome) from ``jobs`` worker processes, in the order they
    finish. With ``url`` (a database other processes can open) the workers read the records
    themselves; else ``read`` reads them here and they are sent."""
    pages = run_pages(
        AnalyzeWorker(registry, context, url),
        _segments(items, jobs),
        name="analysis",
        error=AnalysisError,
        send=None if url is not None else (lambda page: _tasks(page, read)),
    )
    with closing(pages):
        for page, outcomes in pages:
            yield list(zip([item[0] for item in page], outcomes, strict=True))
