"""Worker processes that take pages of work, for `analyze --jobs` and `publish --jobs`.

The caller gives a `PageWorker` (pickled once, unpickled in each worker) and one run of pages
per worker; each worker is fed at most two pages ahead, so memory stays flat however many
pages there are. However the run ends (done, an error, Ctrl-C, the parent killed), no worker
is left behind: Ctrl-C is ignored by the workers and they are ended by the parent, and on
Linux the kernel ends them when the parent dies.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import pickle
import queue
import sys
import traceback
from collections.abc import Callable, Generator, Sequence
from typing import Any, Protocol, TypeVar

from prdigest.errors import PrdigestError
from prdigest.interrupts import CTRL_C

# Below this many items, starting workers (about half a second each) costs more than it saves.
MIN_PARALLEL = 50
_PAGES_AHEAD = 2
_POLL_SECONDS = 1.0

P = TypeVar("P")


class PageWorker(Protocol):
    """What a worker process runs: ``page`` for each page sent to it, ``close`` at its end."""

    def page(self, work: Any) -> Any: ...

    def close(self) -> None: ...


def default_jobs() -> int:
    """Worker processes by default: the CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def worker_count(jobs: int | None, items: int) -> int:
    """How many workers ``items`` items repay (``jobs`` None: one per CPU); 1 means none."""
    wanted = default_jobs() if jobs is None else max(1, jobs)
    return max(1, min(wanted, items // MIN_PARALLEL))


def _die_with_parent(parent: int) -> None:
    """End this worker when the process that started it ends, however it ends.

    Linux: the kernel sends SIGKILL on the parent's death (PR_SET_PDEATHSIG), even a kill -9
    of the parent. Ctrl-C reaches the whole process group: a worker ignores it and is ended
    by the parent, which knows whether the run is over. Elsewhere the worker still notices a
    dead parent the next time it waits for work (see `_next_task`).
    """
    import signal

    # Started with SIGINT blocked (`start_holding_ctrl_c`): ignoring it discards a Ctrl-C
    # held since then, and only then is it let through.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
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


def _worker_main(setup: bytes, inbox: Any, outbox: Any, index: int, parent: int) -> None:
    _die_with_parent(parent)
    worker: PageWorker = pickle.loads(setup)
    try:
        while True:
            task = _next_task(inbox, parent)
            if task is None:
                return
            page_number, work = task
            try:
                result = worker.page(work)
            except BaseException:  # reported to the main process, which raises
                outbox.put((index, page_number, None, traceback.format_exc(limit=6)))
                return
            del work  # this page goes before the next one is read
            outbox.put((index, page_number, result, None))
    finally:
        worker.close()


def start_holding_ctrl_c(workers: Sequence[Any]) -> None:
    """Start the workers with Ctrl-C held from their first instruction: a blocked signal stays
    blocked across exec, so a Ctrl-C while a worker is still starting up waits until the
    worker ignores it (`_die_with_parent`) and cannot print its traceback there.

    The parent does not lose a Ctrl-C that comes meanwhile. This thread blocks it, and another
    thread of the parent that takes it (a queue's feeder, say) runs a handler that only notes
    it (never ``SIG_IGN``, which would drop it there). Once the workers have started, the
    parent's own handler is back and gets the noted Ctrl-C, so the run still stops (exit 130).
    The progress bar's thread is started with SIGINT blocked (`prdigest.cli.progress`)."""
    import signal

    noted: list[int] = []

    def note(signum: int, _frame: object) -> None:
        noted.append(signum)

    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    previous = signal.signal(signal.SIGINT, note)
    try:
        for worker in workers:
            worker.start()
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    if noted:
        signal.raise_signal(signal.SIGINT)


def run_pages(
    worker: PageWorker,
    runs: Sequence[Sequence[P]],
    *,
    name: str,
    error: Callable[[str], PrdigestError],
    send: Callable[[P], Any] | None = None,
    local: PageWorker | None = None,
    then: Callable[[], Sequence[P]] | None = None,
) -> Generator[tuple[P, Any], None, None]:
    """(page, what ``worker.page`` returned for it) from one worker process per run, in the
    order they finish. ``send(page)``: what goes to the worker for a page (default: the page).
    A worker that fails or dies raises ``error(message)`` here; ``name`` names the workers
    (``prdigest-NAME-i``) and the message.

    ``local``: this process takes the first run itself, with ``local`` (one process fewer to
    start and hold in memory), a page whenever no worker's result is waiting; the pages are
    then shared out as they are asked for (a worker done with its run takes this process's
    pages, and this process a worker's pages not yet sent), so no one waits for the slowest.

    ``then()``: more pages, asked for once every page of ``runs`` is done and its result taken
    (their work may depend on those results); they are dealt out in turn, workers first, and
    the workers are kept until then rather than started again."""
    pending = [list(run) for run in runs]
    own: list[P] = pending.pop(0) if local is not None and pending else []
    # spawn, not fork: the parent may run threads (progress bars, database pools).
    mp = multiprocessing.get_context("spawn")
    setup = pickle.dumps(worker)
    outbox: Any = mp.Queue()
    inboxes: list[Any] = [mp.Queue() for _ in pending]
    processes = [
        mp.Process(
            target=_worker_main,
            args=(setup, inboxes[i], outbox, i, os.getpid()),
            daemon=True,
            name=f"prdigest-{name}-{i}",
        )
        for i in range(len(pending))
    ]
    start_holding_ctrl_c(processes)
    sent: dict[int, P] = {}  # pages in flight, by the number they were sent under
    ended = [False] * len(pending)  # told there is no more work
    numbers = itertools.count()

    later = [then]  # emptied once asked for

    def feed(index: int) -> None:
        if pending[index]:
            page = pending[index].pop(0)
        elif own:
            page = own.pop()
        else:
            if not ended[index] and later[0] is None:
                inboxes[index].put(None)
                ended[index] = True
            return
        number = next(numbers)
        sent[number] = page
        inboxes[index].put((number, page if send is None else send(page)))

    def take_here() -> P | None:
        if own:
            return own.pop(0)
        for run in pending:  # a worker's page not yet sent, from the end of its run
            if run:
                return run.pop()
        return None

    def deal_later() -> bool:
        """Whether ``then`` gave more pages (dealt out, and sent to the waiting workers)."""
        more = later[0]
        if more is None:
            return False
        later[0] = None
        pages = list(more())
        takers = len(pending) + (1 if local is not None else 0)
        for turn, page in enumerate(pages):
            (pending[turn % takers] if turn % takers < len(pending) else own).append(page)
        for index in range(len(pending)):
            feed(index)  # one each: the rest is shared out as they are asked for
        return bool(pages)

    finished = False
    try:
        for index in range(len(pending)):
            for _ in range(_PAGES_AHEAD):
                feed(index)
        while sent or (local is not None and (own or any(pending))) or deal_later():
            CTRL_C.raise_if_pressed()  # taken somewhere as an error and lost: stop at the next page
            try:
                if local is not None and (own or any(pending)):
                    index, number, result, failure = outbox.get_nowait()
                else:
                    index, number, result, failure = outbox.get(timeout=_POLL_SECONDS)
            except queue.Empty:
                mine = take_here() if local is not None else None
                if mine is not None and local is not None:
                    yield mine, local.page(mine)
                    continue
                dead = [p.name for p in processes if not p.is_alive() and p.exitcode not in (0, None)]
                if dead:
                    raise error(f"{name} worker {dead[0]} died") from None
                continue
            if failure is not None:
                raise error(f"{name} worker failed:\n{failure}")
            page = sent.pop(number)
            feed(index)
            yield page, result
        finished = True
    finally:
        for index, inbox in enumerate(inboxes):
            if not ended[index]:
                inbox.put(None)
        for process in processes:
            # A run that stopped early (an error, Ctrl-C, the consumer gone) does not wait
            # for pages no one will read: its workers end now.
            process.join(timeout=5 if finished else 0)
            if process.is_alive():
                process.terminate()
                process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join()
        for inbox in inboxes:
            inbox.cancel_join_thread()  # the workers are gone; nothing left to deliver
            inbox.close()
        outbox.close()
