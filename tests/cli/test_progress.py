"""The progress bar's drawing thread never takes a Ctrl-C: the main thread does."""

from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path

import pytest

from prdigest.cli.progress import progress


def _blocked_signals(native_id: int) -> int:
    status = Path(f"/proc/self/task/{native_id}/status").read_text(encoding="ascii")
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigBlk:")), 16)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads thread masks from /proc")
def test_the_drawing_thread_leaves_ctrl_c_to_the_main_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    controller, terminal = os.openpty()  # a terminal, so the bar is drawn (and its thread runs)
    with os.fdopen(terminal, "w") as stderr:
        monkeypatch.setattr(sys, "stderr", stderr)
        before = set(threading.enumerate())
        with progress("publishing", total=3) as bar:
            drawing = [t for t in threading.enumerate() if t not in before]
            assert drawing, "no drawing thread on a terminal"
            bar.advance()
            for thread in drawing:
                assert thread.native_id is not None
                assert _blocked_signals(thread.native_id) & (1 << (signal.SIGINT - 1)), thread.name
        # the main thread's own mask is as it was
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    os.close(controller)
