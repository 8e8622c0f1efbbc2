"""Starting worker processes does not lose a Ctrl-C that reaches the parent meanwhile."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator

import pytest

from prdigest.pipeline.worker_pool import start_holding_ctrl_c


@pytest.fixture(autouse=True)
def _ctrl_c_raises() -> Iterator[None]:
    """Python's own Ctrl-C handler, as in a command (pytest-xdist workers ignore SIGINT)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


class _InterruptedWhileStarting:
    """Stands in for a `multiprocessing.Process` whose start takes long enough for a Ctrl-C."""

    def __init__(self) -> None:
        self.started = False

    def start(self) -> None:
        # To the main thread, as a terminal's Ctrl-C reaches a command that runs no other
        # thread while it starts workers (pytest-xdist's workers do run others).
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
        self.started = True


def test_a_ctrl_c_during_the_start_is_raised_once_the_workers_run() -> None:
    workers = [_InterruptedWhileStarting(), _InterruptedWhileStarting()]
    with pytest.raises(KeyboardInterrupt):
        start_holding_ctrl_c(workers)
    assert all(worker.started for worker in workers)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())


class _InterruptedInAnotherThread:
    """Like `_InterruptedWhileStarting`, but the Ctrl-C is taken by another thread of the
    parent, one that does not block SIGINT (a queue's feeder thread, say)."""

    def __init__(self) -> None:
        self.asked, self.taken = threading.Event(), threading.Event()
        # Made before the start, so SIGINT is not blocked in it.
        self.thread = threading.Thread(target=self._take_ctrl_c)
        self.thread.start()
        self.started = False

    def _take_ctrl_c(self) -> None:
        if self.asked.wait(timeout=60):
            # To itself: delivered to this thread before the call returns.
            signal.pthread_kill(threading.get_ident(), signal.SIGINT)
        self.taken.set()

    def start(self) -> None:
        self.asked.set()
        self.taken.wait(timeout=60)
        self.started = True


def test_a_ctrl_c_another_thread_takes_during_the_start_is_not_lost() -> None:
    worker = _InterruptedInAnotherThread()
    try:
        with pytest.raises(KeyboardInterrupt):
            start_holding_ctrl_c([worker])
    finally:
        worker.asked.set()
        worker.thread.join()
    assert worker.started
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_no_ctrl_c_no_interrupt() -> None:
    class Quiet:
        started = False

        def start(self) -> None:
            self.started = True

    worker = Quiet()
    start_holding_ctrl_c([worker])
    assert worker.started
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


class _Doubler:
    """A page worker: each number doubled, with the process that did it."""

    def page(self, work: list[int]) -> tuple[int, list[int]]:
        import os

        return os.getpid(), [2 * number for number in work]

    def close(self) -> None:
        pass


def test_pages_asked_for_at_the_end_are_made_by_the_same_processes() -> None:
    import os

    from prdigest.errors import StoreError
    from prdigest.pipeline.worker_pool import run_pages

    done: list[int] = []

    def then() -> list[list[int]]:
        # Asked for once every first page's result was taken: they may depend on them.
        assert sorted(done) == [2 * n for n in range(1, 9)]
        return [[sum(done)], [100], [200]]

    runs = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
    pids: set[int] = set()
    later: list[int] = []
    for page, (pid, doubled) in run_pages(_Doubler(), runs, name="test", error=StoreError, local=_Doubler(), then=then):
        pids.add(pid)
        if page[0] in (sum(range(1, 9)) * 2, 100, 200):
            later.extend(doubled)
        else:
            done.extend(doubled)
    assert sorted(later) == [2 * 72, 200, 400]
    assert os.getpid() in pids
    assert len(pids) <= 2  # this process and the one worker, which was kept, not started again
