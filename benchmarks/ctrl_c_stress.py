"""Ctrl-C at random moments of ``publish --jobs 2`` (or ``analyze --jobs 2``): how many runs
did not end as interrupted (exit 130, no worker left behind).

    .venv/bin/python benchmarks/ctrl_c_stress.py [--runs 50] [--command publish|analyze]
        [--max-delay 0.3] [--workdir DIR]

A synthetic history (`prdigest.demo.synthetic`, 120 PRs) is synced and analyzed once; then
each run starts the command on a fresh copy of that database in its own process group, as a
terminal would, waits for its worker process to show, sleeps a random 0..--max-delay seconds
and sends SIGINT to the group (what Ctrl-C does). A Ctrl-C is a race against everything the
process does, so a fault shows only now and then: the fault test
(`tests/faults/test_publish_workers.py`) tries one moment, this tries many.

Run it from a terminal or a shell with job control: a job a non-interactive shell starts in
the background inherits SIGINT ignored, and then every run "fails" (`prdigest` keeps an
ignored SIGINT ignored, as it should).

Prints each bad run (delay, exit code, the end of stderr) and "bad: N of M".
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The fault tests' reading of the process table (their workers are these workers).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.faults.processes import alive, workers

PRDIGEST = [sys.executable, "-m", "prdigest"]
REPO = "example-org/synthetic"
INTERRUPTED = 130


def prepare(workdir: Path, command: str) -> Path:
    from prdigest.demo.synthetic import write_synthetic_history

    history = write_synthetic_history(workdir / "repo", prs=120, files=30, lines=40)
    db = workdir / "base.db"
    subprocess.run([*PRDIGEST, "sync", "git", str(history), "--db", str(db)], check=True, capture_output=True)
    if command == "publish":
        subprocess.run([*PRDIGEST, "analyze", "--jobs", "1", "--db", str(db)], check=True, capture_output=True)
    return db


def one_run(base: Path, workdir: Path, command: str, delay: float) -> tuple[int, str, bool]:
    """(exit code, stderr, whether a worker outlived the run)."""
    db = workdir / "run.db"
    shutil.copy(base, db)
    site = workdir / "site"
    shutil.rmtree(site, ignore_errors=True)
    args = ["analyze"] if command == "analyze" else ["publish", REPO, "--out", str(site), "--no-llm"]
    args += ["--jobs", "2"]
    process = subprocess.Popen(
        [*PRDIGEST, *args, "--db", str(db)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    seen: set[int] = set()
    while process.poll() is None and not seen:
        seen = workers(process.pid)
        time.sleep(0.01)
    time.sleep(delay)
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGINT)
    _out, err = process.communicate(timeout=120)
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in seen) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in seen if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return process.returncode, err, bool(left)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--command", choices=["publish", "analyze"], default="publish")
    parser.add_argument("--max-delay", type=float, default=0.3, help="seconds after the worker shows (default 0.3)")
    parser.add_argument("--workdir", type=Path, default=None)
    options = parser.parse_args()
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        sys.exit("SIGINT is ignored in this shell (a background job?): every run would look bad")
    workdir = options.workdir or Path(tempfile.mkdtemp(prefix="prdigest-ctrl-c-"))
    workdir.mkdir(parents=True, exist_ok=True)
    base = prepare(workdir, options.command)
    bad = 0
    for run in range(options.runs):
        delay = random.uniform(0, options.max_delay)
        code, err, left = one_run(base, workdir, options.command, delay)
        if code != INTERRUPTED or left or "Traceback" in err:
            bad += 1
            tail = " | ".join(err.strip().splitlines()[-2:])
            print(f"run {run}: delay {delay:.3f} s, exit {code}, worker left: {left}, stderr: {tail}", flush=True)
    print(f"bad: {bad} of {options.runs} ({options.command} --jobs 2, Ctrl-C 0-{options.max_delay} s after the worker)")


if __name__ == "__main__":
    main()
