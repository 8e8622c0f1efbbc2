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

import contextlib
import multiprocessing
import os
import pickle
import queue
import sys
import traceback
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.registry import Registry
from prdigest.errors import AnalysisError
from prdigest.models.pullrequest import PullRequest
from prdigest.store.facts_store import FactsRow

PAGE_SIZE = 25
# A worker's page is smaller: it holds the page's records and outcomes at once, and the
# biggest pages (PRs carrying whole large files) set the worker's peak memory.
WORKER_PAGE_SIZE = 8
# Below this many PRs, starting workers (about half a second each) costs more than it saves.
MIN_PARALLEL = 50
_PAGES_AHEAD = 2
_POLL_SECONDS = 1.0


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


def default_jobs() -> int:
    """Worker processes by default: the CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def analyze_task(task: Task, registry: Registry, context: AnalysisContext) -> Outcome:
    """Analyze one record; an `AnalysisError` becomes its message (the others go on)."""
    from prdigest.analyzers.registry import run_all
    from prdigest.store.facts_store import facts_row

    try:
        result = run_all(task.record, registry, context)
    except AnalysisError as exc:
        return str(exc)
    return facts_row(task.pull_request_id, result, task.cache_key)


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


def _die_with_parent(parent: int) -> None:
    """End this worker when the process that started it ends, however it ends.

    Linux: the kernel sends SIGKILL on the parent's death (PR_SET_PDEATHSIG), even a kill -9
    of the parent. Ctrl-C reaches the whole process group: a worker ignores it and is ended
    by the parent, which knows whether the run is over. Elsewhere the worker still notices a
    dead parent the next time it waits for work (see `_next_task`).
    """
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request above: nothing will signal
        os._exit(1)


def _next_task(inbox: Any, parent: int) -> Any:
    while True:
        try:
            return inbox.get(timeout=_POLL_SECONDS)
        except queue.Empty:
            if os.getppid() != parent:
                os._exit(1)


def _worker_main(setup: bytes, inbox: Any, outbox: Any, index: int, parent: int, url: str | None) -> None:
    _die_with_parent(parent)
    registry, context = pickle.loads(setup)
    store: Any = None
    try:
        while True:
            task = _next_task(inbox, parent)
            if task is None:
                return
            page_number, work = task
            try:
                if url is not None:  # ids: read the page here
                    if store is None:
                        from prdigest.store.store import Store

                        store = Store.open(url, create=False, read_only_ok=True)
                    work = _tasks(work, _reader(store))
                outcomes = [analyze_task(t, registry, context) for t in work]
            except BaseException:  # reported to the main process, which raises
                outbox.put((index, page_number, None, traceback.format_exc(limit=6)))
                return
            del work  # this page's records go before the next page is read
            outbox.put((index, page_number, outcomes, None))
    finally:
        if store is not None:
            store.close()


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


def _start_ignoring_ctrl_c(workers: list[Any]) -> None:
    """Start the workers with Ctrl-C ignored from their first instruction: an ignored signal
    stays ignored across exec, so a Ctrl-C while a worker is still starting up cannot print
    its traceback. The parent's own handler is restored at once; it ends the workers itself."""
    import signal

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        for worker in workers:
            worker.start()
    finally:
        signal.signal(signal.SIGINT, previous)


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
    # spawn, not fork: the parent may run threads (progress bars, database pools).
    mp = multiprocessing.get_context("spawn")
    setup = pickle.dumps((registry, context))
    outbox: Any = mp.Queue()
    runs = _segments(items, jobs)
    inboxes: list[Any] = [mp.Queue() for _ in runs]
    workers = [
        mp.Process(
            target=_worker_main,
            args=(setup, inboxes[i], outbox, i, os.getpid(), url),
            daemon=True,
            name=f"prdigest-analyze-{i}",
        )
        for i in range(len(runs))
    ]
    _start_ignoring_ctrl_c(workers)
    sent: dict[tuple[int, int], list[int]] = {}  # pages in flight: their PR ids
    next_page = [0] * len(runs)

    def feed(index: int) -> None:
        if next_page[index] < len(runs[index]):
            page = runs[index][next_page[index]]
            sent[(index, next_page[index])] = [item[0] for item in page]
            inboxes[index].put((next_page[index], page if url is not None else _tasks(page, read)))
            next_page[index] += 1
        elif next_page[index] == len(runs[index]):
            inboxes[index].put(None)
            next_page[index] += 1

    finished = False
    try:
        for index in range(len(runs)):
            for _ in range(_PAGES_AHEAD):
                feed(index)
        while sent:
            try:
                index, page_number, outcomes, error = outbox.get(timeout=_POLL_SECONDS)
            except queue.Empty:
                dead = [w.name for w in workers if not w.is_alive() and w.exitcode not in (0, None)]
                if dead:
                    raise AnalysisError(f"analysis worker {dead[0]} died") from None
                continue
            if error is not None:
                raise AnalysisError(f"analysis worker failed:\n{error}")
            ids = sent.pop((index, page_number))
            feed(index)
            yield list(zip(ids, outcomes, strict=True))
        finished = True
    finally:
        for index, inbox in enumerate(inboxes):
            if next_page[index] <= len(runs[index]):
                inbox.put(None)
        for worker in workers:
            # A run that stopped early (an error, Ctrl-C, the consumer gone) does not wait
            # for pages no one will read: its workers end now.
            worker.join(timeout=5 if finished else 0)
            if worker.is_alive():
                worker.terminate()
                worker.join(timeout=5)
            if worker.is_alive():
                worker.kill()
                worker.join()
        for inbox in inboxes:
            inbox.cancel_join_thread()  # the workers are gone; nothing left to deliver
            inbox.close()
        outbox.close()
