"""Benchmark ``prdigest sync git`` against a bare ``git log -p --first-parent`` of the same commits.

    .venv/bin/python benchmarks/git_sync.py [--path REPO] [--prs 2000] [--repo OWNER/NAME]

Without --path, a repository with --prs merged PRs is built with ``git fast-import``.
Prints: the baseline's wall time, the sync's (fresh database, with and without file
contents), their ratio to the baseline (target <= 2.0), a second run with nothing new, the
child's peak memory (ru_maxrss; target < 300 MB), and Python's import floor.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from prdigest.sources.git.log_stream import log_command
from prdigest.sources.git.runner import git_command, git_environment

PRDIGEST = Path(sys.executable).parent / "prdigest"


def run_child(argv: list[str]) -> tuple[float, float, str]:
    """(wall seconds, peak RSS in MB, stdout); wait4 keeps the child's own rusage."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    assert process.stderr is not None
    out = process.stdout.read()
    err = process.stderr.read()
    _pid, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.perf_counter() - started
    if process.returncode != 0:
        raise SystemExit(f"failed: {' '.join(argv)}\n{err.decode(errors='replace')}")
    return elapsed, usage.ru_maxrss / 1024, out.decode(errors="replace").strip()


def bare_git_log(repo: Path) -> tuple[float, int]:
    """Wall time of the same ``git log -p`` the sync runs, read through a pipe in Python."""
    started = time.perf_counter()
    process = subprocess.Popen(git_command(repo, log_command("HEAD")), stdout=subprocess.PIPE, env=git_environment())
    assert process.stdout is not None
    total = 0
    while chunk := process.stdout.read(1 << 20):
        total += len(chunk)
    process.wait()
    return time.perf_counter() - started, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--path", type=Path, help="an existing clone (default: build a synthetic one)")
    parser.add_argument("--prs", type=int, default=2000, help="PRs in the synthetic repository")
    parser.add_argument("--repo", help="OWNER/NAME when the clone has no GitHub-style origin")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="prdigest-bench-") as scratch:
        work = Path(scratch)
        repo = args.path
        if repo is None:
            from prdigest.demo.synthetic import write_synthetic_history

            started = time.perf_counter()
            repo = write_synthetic_history(work / "repo", args.prs)
            print(f"built a {args.prs}-PR repository with git fast-import in {time.perf_counter() - started:.2f} s")
        extra = ["--repo", args.repo] if args.repo else []
        baseline = min(bare_git_log(repo)[0] for _ in range(3))
        size = bare_git_log(repo)[1]
        print(f"git log -p --first-parent (same flags): {baseline:.3f} s for {size / 1e6:.1f} MB of output")
        floor, _rss, _out = run_child(
            [
                sys.executable,
                "-c",
                "import prdigest.cli.sync_git, prdigest.store, prdigest.sources.git, sqlalchemy.dialects.sqlite",
            ]
        )
        print(f"python start + imports (included in every sync below): {floor:.3f} s")
        for label, flags in (("sync (contents on, default)", []), ("sync --no-contents", ["--no-contents"])):
            db = work / f"{len(flags)}.db"
            command = [str(PRDIGEST), "sync", "git", str(repo), "--db", str(db), *extra, *flags]
            first, rss, summary = run_child(command)
            second, rss2, summary2 = run_child(command)
            print(
                f"{label}: {first:.3f} s, ratio {first / baseline:.2f} "
                f"(without the import floor {(first - floor) / baseline:.2f}), peak RSS {rss:.0f} MB"
            )
            print(f"  {summary}")
            print(f"  second run (nothing new): {second:.3f} s, peak RSS {rss2:.0f} MB; {summary2}")


if __name__ == "__main__":
    main()
