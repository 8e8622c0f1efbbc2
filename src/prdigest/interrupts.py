"""Ctrl-C, told apart from the failures it can be mistaken for.

Python raises KeyboardInterrupt wherever the main thread happens to be when Ctrl-C comes.
Inside a library's own machinery it can come back as that library's error instead: pydantic,
building a model's schema on first use, reports it as a ``SchemaError``. A per-PR ``except
Exception`` then takes the Ctrl-C for one PR's failure (or, where a failed batch read falls
back to reading PR by PR, for nothing at all), and the run goes on to the end and exits as if
no one had pressed it.

`CTRL_C` records the Ctrl-C as well as raising it, so those sites can ask whether one came
(`CtrlC.raise_if_pressed`) and the command still stops with exit 130. It is one record per
process because a signal handler is: the process has one SIGINT disposition.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class CtrlC:
    """Whether Ctrl-C came while a command ran (see the module's docstring)."""

    def __init__(self) -> None:
        self._pressed = threading.Event()

    @property
    def pressed(self) -> bool:
        return self._pressed.is_set()

    def raise_if_pressed(self) -> None:
        """Raise KeyboardInterrupt again if Ctrl-C came: the exception being handled may be
        the Ctrl-C in a library's wrapping."""
        if self._pressed.is_set():
            raise KeyboardInterrupt

    def _handle(self, _signum: int, _frame: FrameType | None) -> None:
        self._pressed.set()
        raise KeyboardInterrupt

    @contextmanager
    def recorded(self) -> Iterator[None]:
        """Record Ctrl-C while the block runs. Only where Python's own handler is in place,
        in the main thread: a SIGINT ignored on purpose (``nohup``, a background job) stays
        ignored, and a handler someone else installed stays theirs."""
        self._pressed.clear()
        installed = (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        )
        if installed:
            signal.signal(signal.SIGINT, self._handle)
        try:
            yield
        finally:
            if installed and signal.getsignal(signal.SIGINT) == self._handle:
                signal.signal(signal.SIGINT, signal.default_int_handler)


CTRL_C = CtrlC()
