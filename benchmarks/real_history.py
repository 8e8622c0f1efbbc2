"""Every stage of prdigest on a real local clone, next to ``git log -p`` over the same commits.

    .venv/bin/python benchmarks/real_history.py PATH/TO/CLONE [--workdir DIR] [--jobs 2] [--skip publish]

One run prints, for the anchor (``git log -p --no-color --first-parent``) and each stage
(sync, analyze, analyze again with nothing new, feed --lang zh, publish, report of one PR),
its wall time, its ratio to the anchor, and the peak resident memory of the whole process
tree (the command and every child it starts, sampled from /proc every 10 ms), then checks
that no process of the run is left behind. Targets (issue #15): sync <= 2.0x, sync +
analyze <= 3.0x, nothing-new analyze < 0.5 s, analyze --jobs 2 < 400 MB, feed < 200 MB,
publish < 250 MB and < 10 s, report <= 0.2 s.

The commands are the installed CLI's, run as a user would run them (``python -m prdigest``
from this interpreter), each against a fresh database under --workdir.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

PRDIGEST = [sys.executable, "-m", "prdigest"]
_PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


@dataclass
class Stage:
    name: str
    seconds: float
    peak_mb: float
    exit_code: int
    cpu_seconds: float = 0.0  # user + system of the command and the children it waited for


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def _tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        current = todo.pop()
        pids.append(current)
        todo.extend(_children(current))
    return pids


def _rss_kb(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/statm").read_text().split()
    except OSError:
        return 0
    return int(fields[1]) * _PAGE_KB


def run_stage(name: str, command: list[str], *, cwd: Path | None = None, env: dict[str, str] | None = None) -> Stage:
    """Run ``command`` to completion, sampling the summed RSS of its whole process tree."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    stop = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, sum(_rss_kb(p) for p in _tree(proc.pid)))
            stop.wait(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _out, err = proc.communicate()
    seconds = time.perf_counter() - started
    stop.set()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        sys.stderr.write(f"{name}: exit {proc.returncode}: {err.decode(errors='replace')[-500:]}\n")
    return Stage(name, seconds, peak / 1024, proc.returncode, cpu)


def compile_bytecode() -> None:
    """Write the bytecode of prdigest and its dependencies, as installing a package does:
    with PYTHONDONTWRITEBYTECODE set (some sandboxes) every run would compile every module
    it imports again, which is start-up no user pays."""
    import compileall
    import sysconfig

    for folder in {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], *_prdigest_roots()}:
        compileall.compile_dir(folder, quiet=2, workers=0)


def _prdigest_roots() -> list[str]:
    import prdigest

    return [str(Path(prdigest.__file__).parent)]


def git_log_anchor(repo: Path) -> Stage:
    command = ["git", "-C", str(repo), "log", "-p", "--no-color", "--first-parent", "--format=%H%n%B"]
    return run_stage("git log -p", command)


def _ancestors() -> set[int]:
    """This process and those that started it (a shell or ``timeout`` naming the workdir too)."""
    pids, pid = set(), os.getpid()
    while pid > 1 and pid not in pids:
        pids.add(pid)
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            break
        pid = int(stat.rsplit(")", 1)[1].split()[1])
    return pids


def _left_behind(marker: str) -> list[str]:
    """Processes, other than the ones that launched this run, whose command line still names its work directory."""
    found = []
    launchers = _ancestors()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) in launchers:
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in cmdline:
            found.append(f"{entry.name}: {cmdline[:120]}")
    return found


def _one_pr(db: str, repository: str) -> int | None:
    listed = subprocess.run(
        [*PRDIGEST, "list", "--repo", repository, "--db", db, "--json"], capture_output=True, text=True, check=False
    )
    try:
        rows = [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]
    except json.JSONDecodeError:
        return None
    return int(rows[len(rows) // 2]["number"]) if rows else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("clone", type=Path, help="a local git clone with a PR-shaped first-parent history")
    parser.add_argument("--workdir", type=Path, default=None, help="where databases and sites go (default: a temp dir)")
    parser.add_argument("--jobs", type=int, default=2, help="analyze --jobs N (default 2)")
    parser.add_argument("--repo", default=None, help="OWNER/NAME (default: from the clone's origin remote)")
    parser.add_argument("--skip", action="append", default=[], help="stage to skip: analyze, feed, publish, report")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="prdigest-real-"))
    workdir.mkdir(parents=True, exist_ok=True)
    db = str(workdir / "bench.db")
    for suffix in ("", "-wal", "-shm"):
        Path(db + suffix).unlink(missing_ok=True)
    clone = args.clone.resolve()
    compile_bytecode()
    load = os.getloadavg()

    anchor = git_log_anchor(clone)
    stages = [anchor]
    sync_cmd = [*PRDIGEST, "sync", "git", str(clone), "--db", db] + (["--repo", args.repo] if args.repo else [])
    stages.append(run_stage("sync", sync_cmd))
    if "analyze" not in args.skip:
        stages.append(
            run_stage(f"analyze --jobs {args.jobs}", [*PRDIGEST, "analyze", "--db", db, "--jobs", str(args.jobs)])
        )
        stages.append(run_stage("analyze (nothing new)", [*PRDIGEST, "analyze", "--db", db]))
    listed = subprocess.run([*PRDIGEST, "list", "--db", db, "--json", "--limit", "1"], capture_output=True, text=True)
    first = listed.stdout.splitlines()[:1]
    repository = args.repo or (json.loads(first[0]).get("repository", "") if first else "")
    if "feed" not in args.skip and repository:
        stages.append(run_stage("feed --lang zh", [*PRDIGEST, "feed", repository, "--lang", "zh", "--db", db]))
    if "publish" not in args.skip and repository:
        site = workdir / "site"
        stages.append(run_stage("publish", [*PRDIGEST, "publish", repository, "--out", str(site), "--db", db]))
    number = _one_pr(db, repository) if repository else None
    if "report" not in args.skip and number is not None:
        command = [*PRDIGEST, "report", f"{repository}#{number}", "--lang", "zh", "--db", db]
        stages.append(run_stage(f"report #{number}", command))

    print(f"history: {clone} ({repository or 'unknown repository'})")
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    print(f"{'stage':28} {'seconds':>9} {'x git log':>10} {'cpu s':>8} {'peak MB':>9}  exit")
    for stage in stages:
        ratio = stage.seconds / anchor.seconds if anchor.seconds else float("nan")
        print(
            f"{stage.name:28} {stage.seconds:9.2f} {ratio:10.2f} {stage.cpu_seconds:8.2f} "
            f"{stage.peak_mb:9.0f}  {stage.exit_code}"
        )
    if "analyze" not in args.skip:
        sync_analyze = sum(s.seconds for s in stages[1:3])
        sync_analyze_cpu = sum(s.cpu_seconds for s in stages[1:3])
        ratio = sync_analyze / anchor.seconds
        print(f"{'sync + analyze':28} {sync_analyze:9.2f} {ratio:10.2f} {sync_analyze_cpu:8.2f}")
    left = _left_behind(str(workdir))
    print("processes left behind: " + ("none" if not left else "; ".join(left)))
    return 1 if left or any(s.exit_code for s in stages) else 0


if __name__ == "__main__":
    raise SystemExit(main())
