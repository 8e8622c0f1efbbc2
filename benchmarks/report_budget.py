"""Where a first ``prdigest report`` spends its start-up: the cost of each layer it imports.

    .venv/bin/python benchmarks/report_budget.py [--runs 7] [--instructions]

Each row is a fresh interpreter running one probe; the probes are cumulative (each imports
what the row above did, plus one layer), so the difference between two rows is what that
layer adds to a process that already has the rows above. Printed per row: the least CPU
seconds (user + sys) over ``--runs`` runs (the least is the one least disturbed by other
processes; the load average is printed too) and, with ``--instructions``, the instructions
counted by valgrind's callgrind (exact and independent of load, but slow: one run per row).

Compare the last rows with ``benchmarks/first_report.py`` (a whole report, same machine):
what is left above the "report models" row is the report's own work, the models' validators
built on first use (pydantic ``defer_build``) and the word files parsed.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# (name, statement): cumulative, each row runs every statement up to its own.
PROBES: tuple[tuple[str, str], ...] = (
    ("python -c pass", "pass"),
    ("+ sqlite3, json, hashlib", "import sqlite3, json, hashlib"),
    ("+ click (prdigest.cli.main)", "import prdigest.cli.main"),
    ("+ report command, quick path", "import prdigest.cli.report, prdigest.pipeline.quick"),
    ("+ pydantic BaseModel", "from pydantic import BaseModel"),
    (
        "+ report models (classes)",
        "import prdigest.models.facts, prdigest.models.pullrequest, prdigest.models.narrative, "
        "prdigest.models.report, prdigest.models.ledger",
    ),
    (
        "+ builder, renderer, narrator entry",
        "import prdigest.render.build, prdigest.render.formats, prdigest.render.markdown, prdigest.narrate.extractive",
    ),
    # word files are parsed on first use: ask for a table
    ("+ zh labels parsed (TOML)", "from prdigest.words import CATALOG; CATALOG.labels('zh').tables"),
    (
        "+ validators built (PR, facts, report)",
        "from prdigest.models.pullrequest import PullRequest; from prdigest.models.facts import Facts; "
        "from prdigest.models.report import Report; "
        "[m.model_rebuild() for m in (PullRequest, Facts, Report)]",
    ),
)


def cpu_seconds(statement: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", statement], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions(statement: str, folder: Path) -> int:
    out = folder / "callgrind.out"
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", statement],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    found = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
    if found is None:
        raise SystemExit("callgrind wrote no totals")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="runs per probe; the least CPU is kept (default 7)")
    parser.add_argument("--instructions", action="store_true", help="also count instructions with valgrind")
    args = parser.parse_args()
    if args.instructions and shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind")
    # Bytecode as an installed package has it (PYTHONDONTWRITEBYTECODE may be set here).
    import prdigest

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(prdigest.__file__).parent)], check=True)
    load = os.getloadavg()
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    header = f"{'probe (cumulative)':42} {'cpu min':>8} {'added':>7}"
    print(header + (f" {'instructions':>14} {'added':>12}" if args.instructions else ""))
    statements: list[str] = []
    last_cpu, last_ir = 0.0, 0
    with tempfile.TemporaryDirectory(prefix="prdigest-budget-") as folder:
        for name, statement in PROBES:
            statements.append(statement)
            program = "; ".join(statements)
            cpu = min(cpu_seconds(program) for _ in range(args.runs))
            line = f"{name:42} {cpu:8.3f} {cpu - last_cpu:+7.3f}"
            if args.instructions:
                ir = instructions(program, Path(folder))
                line += f" {ir / 1e6:13.0f}M {(ir - last_ir) / 1e6:+11.0f}M"
                last_ir = ir
            last_cpu = cpu
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
