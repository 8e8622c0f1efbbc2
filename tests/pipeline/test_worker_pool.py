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


def test_no_ctrl_c_no_interrupt() -> None:
    class Quiet:
        started = False

        def start(self) -> None:
            self.started = True

    worker = Quiet()
    start_holding_ctrl_c([worker])
    assert worker.started
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
