"""Benchmark ``prdigest sync git`` against a bare ``git log -p --first-parent`` of the same commits.

    .venv/bin/python benchmarks/git_sync.py [--path REPO] [--prs 2000] [--repo OWNER/NAME] [--repeat 3]

Without --path, a repository with --prs merged PRs is built with ``git fast-import``.
Prints: the baseline's wall time, the sync's (fresh database, with and without file
contents), their ratio to the baseline (target <= 2.0), a second run with nothing new, the
sync process's own peak memory and its git children's (target < 300 MB), and Python's
import floor. Every figure is the best of --repeat runs (the machine may be shared).

How it measures, so the figures mean what they say:
- Bytecode is compiled once first (``compileall`` over site-packages and src): an
  environment with PYTHONDONTWRITEBYTECODE=1 would otherwise recompile every module on
  every start, which no installed prdigest does.
- Each sync runs as ``python -c <shim>`` forked from a small launcher process, not from this
  one: a child's ru_maxrss starts at its parent's peak (fork/vfork + exec keep the high-water
  mark), so a child of this process, which built the repository, would report this
  process's memory. The shim runs the same entry point as the ``prdigest`` script and
  reports its own peak (RUSAGE_SELF) and that of its git children (RUSAGE_CHILDREN).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from prdigest.sources.git.log_stream import log_command
from prdigest.sources.git.runner import git_command, git_environment

SRC = Path(__file__).resolve().parents[1] / "src"

# Forks, execs argv in the child, waits, and appends the child's wall time and exit code to
# stderr as a JSON line; the child's own stdout/stderr pass through.
_LAUNCHER = """
import json, os, sys, time
started = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_pid, status, _usage = os.wait4(pid, 0)
elapsed = time.perf_counter() - started
sys.stderr.write("\\n@@bench " + json.dumps({"wall": elapsed, "code": os.waitstatus_to_exitcode(status)}) + "\\n")
"""

# The ``prdigest`` console script's body, plus a report of this process's peak memory.
_SHIM = """
import atexit, json, resource, sys
def _report():
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    git = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    sys.stderr.write("\\n@@rss " + json.dumps({"self_kb": own, "children_kb": git}) + "\\n")
atexit.register(_report)
sys.argv[0] = "prdigest"
from prdigest.cli.main import main
sys.exit(main())
"""


def compile_bytecode() -> None:
    site = sysconfig.get_paths()["purelib"]
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "-j", "0", site, str(SRC)],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def run_measured(argv: list[str]) -> dict[str, float | str]:
    """Wall seconds (measured by the launcher), peak RSS (MB) of the process and its git children, stdout."""
    completed = subprocess.run([sys.executable, "-c", _LAUNCHER, *argv], capture_output=True, check=False)
    err = completed.stderr.decode(errors="replace")
    found: dict[str, float | str] = {"out": completed.stdout.decode(errors="replace").strip()}
    for line in err.splitlines():
        if line.startswith("@@bench "):
            bench = json.loads(line[8:])
            found["wall"] = bench["wall"]
            if bench["code"] != 0:
                raise SystemExit(f"failed: {' '.join(argv)}\n{err}")
        elif line.startswith("@@rss "):
            rss = json.loads(line[6:])
            found["self_mb"] = rss["self_kb"] / 1024
            found["git_mb"] = rss["children_kb"] / 1024
    return found


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


def best(runs: list[dict[str, float | str]]) -> dict[str, float | str]:
    """The fastest run, with the highest peak memory seen in any run."""
    fastest = dict(min(runs, key=lambda run: float(run["wall"])))
    for key in ("self_mb", "git_mb"):
        fastest[key] = max(float(run.get(key, 0.0)) for run in runs)
    return fastest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--path", type=Path, help="an existing clone (default: build a synthetic one)")
    parser.add_argument("--prs", type=int, default=2000, help="PRs in the synthetic repository")
    parser.add_argument("--repo", help="OWNER/NAME when the clone has no GitHub-style origin")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is shown")
    args = parser.parse_args()
    started = time.perf_counter()
    compile_bytecode()
    print(f"compiled bytecode once ({time.perf_counter() - started:.1f} s): start-up is measured as installed")
    with tempfile.TemporaryDirectory(prefix="prdigest-bench-") as scratch:
        work = Path(scratch)
        repo = args.path
        if repo is None:
            from prdigest.demo.synthetic import write_synthetic_history

            started = time.perf_counter()
            repo = write_synthetic_history(work / "repo", args.prs)
            print(f"built a {args.prs}-PR repository with git fast-import in {time.perf_counter() - started:.2f} s")
        extra = ["--repo", args.repo] if args.repo else []
        baseline = min(bare_git_log(repo)[0] for _ in range(max(3, args.repeat)))
        size = bare_git_log(repo)[1]
        print(f"git log -p --first-parent (same flags): {baseline:.3f} s for {size / 1e6:.1f} MB of output")
        imports = "import prdigest.cli.main, prdigest.cli.sync_git, prdigest.store, prdigest.sources.git"
        floor = best([run_measured([sys.executable, "-c", imports]) for _ in range(args.repeat)])
        floor_s = float(floor["wall"])
        print(f"python start + imports (included in every sync below): {floor_s:.3f} s")
        shim = [sys.executable, "-c", _SHIM, "sync", "git", str(repo), *extra]
        for label, flags in (("sync (contents on, default)", []), ("sync --no-contents", ["--no-contents"])):
            first_runs, second_runs = [], []
            for attempt in range(args.repeat):
                db = work / f"{len(flags)}-{attempt}.db"
                first_runs.append(run_measured([*shim, "--db", str(db), *flags]))
                second_runs.append(run_measured([*shim, "--db", str(db), *flags]))
            first, second = best(first_runs), best(second_runs)
            wall = float(first["wall"])
            print(
                f"{label}: {wall:.3f} s, ratio {wall / baseline:.2f} (target <= 2.0; without the import floor "
                f"{(wall - floor_s) / baseline:.2f}); peak RSS: sync process {float(first['self_mb']):.0f} MB, "
                f"its git children {float(first['git_mb']):.0f} MB"
            )
            print(f"  {first['out']}")
            print(
                f"  second run (nothing new): {float(second['wall']):.3f} s, "
                f"peak RSS {float(second['self_mb']):.0f} MB; {second['out']}"
            )


if __name__ == "__main__":
    main()
