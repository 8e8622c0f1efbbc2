"""Time `prdigest analyze` over a history of at least 2,000 PRs, next to `git log -p`.

Targets (issue #3): analysis adds at most 1.0x git's own time; a second run with nothing
changed takes under 1 s. Usage::

    python benchmarks/analyze.py [--path REPO] [--prs 2000] [--workdir DIR]

Without --path a synthetic history is built with `git fast-import` (see
prdigest.demo.synthetic). The figures are printed, not asserted.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PRDIGEST = [sys.executable, "-m", "prdigest"]


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def git_log_seconds(repo: Path) -> float:
    """The anchor: one `git log -p --first-parent` over the whole history, read fully."""
    start = time.perf_counter()
    with subprocess.Popen(
        ["git", "-C", str(repo), "log", "-p", "--first-parent", "-m", "--no-color", "--format=%H%n%B"],
        stdout=subprocess.PIPE,
    ) as proc:
        assert proc.stdout is not None
        while proc.stdout.read(1 << 20):
            pass
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", type=Path, help="an existing clone (default: build a synthetic one)")
    parser.add_argument("--prs", type=int, default=2000, help="PRs in the synthetic history")
    parser.add_argument("--workdir", type=Path, help="where to build (default: a temp dir)")
    args = parser.parse_args()

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="prdigest-bench-"))
    repo = args.path
    if repo is None:
        from prdigest.demo.synthetic import write_synthetic_history

        repo = write_synthetic_history(workdir / "repo", args.prs)
    db = workdir / "bench.db"
    db.unlink(missing_ok=True)

    git_seconds = min(git_log_seconds(repo) for _ in range(3))
    sync_seconds = timed([*PRDIGEST, "sync", "git", str(repo), "--db", str(db)])
    first = timed([*PRDIGEST, "analyze", "--db", str(db)])
    second = timed([*PRDIGEST, "analyze", "--db", str(db)])
    count = subprocess.run(
        [*PRDIGEST, "list", "--json", "--db", str(db)], check=True, capture_output=True, text=True
    ).stdout.count("\n")

    print(f"repository                 : {repo} ({count} PRs stored)")
    print(f"git log -p (anchor)        : {git_seconds:8.2f} s")
    print(f"prdigest sync git          : {sync_seconds:8.2f} s   ratio {sync_seconds / git_seconds:5.2f}x")
    print(f"prdigest analyze (all)     : {first:8.2f} s   ratio {first / git_seconds:5.2f}x  (target <= 1.0x)")
    total = sync_seconds + first
    print(f"sync + analysis            : {total:8.2f} s   ratio {total / git_seconds:5.2f}x  (target <= 3.0x)")
    print(f"analyze again (no change)  : {second:8.2f} s   (target < 1 s)")


if __name__ == "__main__":
    main()
