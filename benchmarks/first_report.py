"""``prdigest report OWNER/NAME#N`` end to end (process start to exit) on an analyzed database.

    .venv/bin/python benchmarks/first_report.py DB [--repo OWNER/NAME] [--prs 10] [--workdir DIR]

DB is copied first (never written). For ``--prs`` PRs spread over the repository, one
process per report (``--lang zh``, full, Markdown), in three situations:

- first report, no narrative stored (what ``sync`` + ``analyze`` leave): narrated now;
- first report, narrative stored (what ``publish``, ``feed`` or the web leave), report cache empty;
- repeated report (served from the report cache).

Prints the median and maximum wall time and the median CPU seconds (user + sys) of each,
with the load average (the machine may be shared). Target (issue #15): <= 0.2 s.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PRDIGEST = [sys.executable, "-m", "prdigest"]


def compile_bytecode() -> None:
    """Bytecode as an installed package has it (PYTHONDONTWRITEBYTECODE may be set here)."""
    import prdigest

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(prdigest.__file__).parent)], check=True)


def pick(db: Path, repository: str | None, count: int) -> tuple[str, list[int]]:
    with sqlite3.connect(db) as connection:
        if repository is None:
            row = connection.execute("SELECT full_name FROM repositories ORDER BY id LIMIT 1").fetchone()
            repository = str(row[0])
        numbers = [
            int(r[0])
            for r in connection.execute(
                "SELECT p.number FROM pull_requests p JOIN repositories r ON r.id = p.repository_id "
                "JOIN facts f ON f.pull_request_id = p.id WHERE r.full_name = ? ORDER BY p.number",
                (repository,),
            )
        ]
    step = max(1, len(numbers) // max(1, count))
    return repository, numbers[::step][:count]


def run(db: Path, repository: str, number: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one ``prdigest report`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [*PRDIGEST, "report", f"{repository}#{number}", "--lang", "zh", "--db", str(db)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PRDIGEST_CONFIG": os.devnull},
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"report {repository}#{number} failed: {done.stderr.decode(errors='replace')}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def execute(db: Path, statement: str) -> None:
    with sqlite3.connect(db) as connection:
        connection.execute(statement)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("db", type=Path, help="an analyzed SQLite database (copied, never written)")
    parser.add_argument("--repo", default=None, help="OWNER/NAME (default: the database's first repository)")
    parser.add_argument("--prs", type=int, default=10, help="how many PRs (default 10)")
    parser.add_argument("--workdir", type=Path, default=None, help="where the copy goes (default: a temp dir)")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="prdigest-first-report-"))
    workdir.mkdir(parents=True, exist_ok=True)
    db = workdir / "first_report.db"
    shutil.copyfile(args.db, db)
    compile_bytecode()
    repository, numbers = pick(db, args.repo, args.prs)
    subprocess.run([*PRDIGEST, "analyze", "--db", str(db)], check=True, stdout=subprocess.DEVNULL)
    load = os.getloadavg()

    results: list[tuple[str, list[tuple[float, float]]]] = []
    execute(db, "DELETE FROM narratives")
    execute(db, "DELETE FROM report_cache")
    results.append(("first, no narrative stored", [run(db, repository, n) for n in numbers]))
    execute(db, "DELETE FROM report_cache")
    results.append(("first, narrative stored", [run(db, repository, n) for n in numbers]))
    results.append(("repeated (report cache)", [run(db, repository, n) for n in numbers]))

    print(f"{repository}: {len(numbers)} PRs ({', '.join(f'#{n}' for n in numbers)})")
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    print(f"{'situation':30} {'wall median':>12} {'wall max':>9} {'cpu median':>11}")
    for name, timings in results:
        walls = [w for w, _ in timings]
        cpus = [c for _, c in timings]
        print(f"{name:30} {statistics.median(walls):12.3f} {max(walls):9.3f} {statistics.median(cpus):11.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
