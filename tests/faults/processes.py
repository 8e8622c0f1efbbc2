"""The process table as the worker-process tests read it (Linux /proc), and a command started
in its own process group as a terminal would start it."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from tests.faults.conftest import clean_env, command


def children(pid: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.add(int(entry))
    return found


def workers(pid: int) -> set[int]:
    """The worker processes among the children (not multiprocessing's resource tracker)."""
    found = set()
    for child in children(pid):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmdline:
            found.add(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def gone_within(pids: set[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(alive(pid) for pid in pids):
            return True
        time.sleep(0.1)
    return False


def start_in_own_group(*args: str) -> subprocess.Popen[str]:
    """``prdigest ARGS`` in its own process group, as a terminal would give it (so a Ctrl-C
    sent to the group reaches it and its workers, and nothing else)."""
    return subprocess.Popen(
        command(*args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=clean_env(),
        start_new_session=True,
    )
