"""A progress bar on stderr that stays out of the way when stderr is not a terminal."""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class Progress:
    """Thin wrapper so commands do not depend on rich directly (and import it lazily)."""

    def __init__(self, description: str, total: int | None) -> None:
        self._bar: Any = None
        self._task: Any = None
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("{task.fields[note]}"),
                console=Console(stderr=True),
                transient=True,
            )
            self._task = self._bar.add_task(description, total=total, note="")

    def set_total(self, total: int) -> None:
        if self._bar is not None:
            self._bar.update(self._task, total=total)

    def advance(self, steps: int = 1, note: str | None = None) -> None:
        if self._bar is not None:
            if note is not None:
                self._bar.update(self._task, note=note)
            self._bar.advance(self._task, steps)

    def note(self, text: str) -> None:
        if self._bar is not None:
            self._bar.update(self._task, note=text)


@contextmanager
def progress(description: str, total: int | None = None) -> Iterator[Progress]:
    bar = Progress(description, total)
    if bar._bar is None:
        yield bar
        return
    # rich redraws from a thread of its own. Started with SIGINT blocked, that thread never
    # takes a Ctrl-C: it reaches the main thread, which may be holding it (see
    # `prdigest.pipeline.worker_pool.start_holding_ctrl_c`) and turns it into KeyboardInterrupt.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        bar._bar.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    try:
        yield bar
    finally:
        bar._bar.stop()
