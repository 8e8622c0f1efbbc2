"""A first ``prdigest publish`` of a whole repository, this code against another source tree, alternating.

    .venv/bin/python benchmarks/publish_ab.py DB [--against SRC] [--rounds 2] [--jobs N] [--workdir DIR]

Each run publishes from a fresh copy of DB (an analyzed SQLite database, never written) with
its stored narratives and report cache deleted, so every narrative is made and every page
written, as the publish stage of `benchmarks/real_history.py` does after a fresh analysis.
``--against SRC``: a ``src`` folder of another prdigest (e.g. ``git archive main src``),
run on its own copy in turn with this one (old, new, old, new...), so both see the same
load. Prints wall time, CPU seconds (user + system of the whole tree) and the whole-tree
peak RSS of each run, then whether the sites (stamp file aside) and the narrative rows are
identical between the two trees.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from real_history import PRDIGEST, Stage, compile_bytecode, run_stage

MANIFEST = ".prdigest-publish.json"


def fresh_copy(source: Path, target: Path) -> None:
    """``source`` copied to ``target`` with no stored narrative and no cached report."""
    for suffix in ("", "-wal", "-shm"):
        Path(str(target) + suffix).unlink(missing_ok=True)
    shutil.copyfile(source, target)
    with sqlite3.connect(target) as connection:
        connection.execute("DELETE FROM narratives")
        connection.execute("DELETE FROM report_cache")
    connection.close()


def repository_of(db: Path) -> str:
    with sqlite3.connect(db) as connection:
        row = connection.execute("SELECT full_name FROM repositories ORDER BY id LIMIT 1").fetchone()
    connection.close()
    return str(row[0])


def publish(name: str, src: Path | None, db: Path, site: Path, repository: str, jobs: int | None) -> Stage:
    shutil.rmtree(site, ignore_errors=True)
    command = [*PRDIGEST, "publish", repository, "--out", str(site), "--db", str(db)]
    if jobs is not None:
        command += ["--jobs", str(jobs)]
    environment = dict(os.environ)
    if src is not None:
        environment["PYTHONPATH"] = str(src)
    return run_stage(name, command, env=environment)


def site_differences(a: Path, b: Path) -> list[str]:
    """Paths that differ between two sites (the stamp file aside)."""
    found: list[str] = []

    def walk(left: Path, right: Path, relative: str) -> None:
        compared = filecmp.dircmp(left, right, ignore=[MANIFEST])
        found.extend(f"{relative}{n} (one side only)" for n in compared.left_only + compared.right_only)
        _match, mismatch, errors = filecmp.cmpfiles(left, right, compared.common_files, shallow=False)
        found.extend(f"{relative}{n}" for n in mismatch + errors)
        for sub in compared.common_dirs:
            walk(left / sub, right / sub, f"{relative}{sub}/")

    walk(a, b, "")
    return found


def narrative_rows(db: Path, *, ids: bool) -> list[tuple[object, ...]]:
    """Every stored narrative (its creation time aside; its id too unless ``ids``), in order."""
    columns = "pull_request_id, lang, length, cache_key, narrator, model, body, tokens_in, tokens_out, calls, seconds"
    with sqlite3.connect(db) as connection:
        rows = connection.execute(f"SELECT {'id, ' if ids else ''}{columns} FROM narratives").fetchall()
    connection.close()
    return sorted(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("db", type=Path, help="an analyzed SQLite database (copied, never written)")
    parser.add_argument("--against", type=Path, default=None, help="a src folder of the prdigest to compare with")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each (default 2)")
    parser.add_argument("--jobs", type=int, default=None, help="publish --jobs N (default: publish's default)")
    parser.add_argument("--workdir", type=Path, default=None, help="where copies and sites go (default: a temp dir)")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="prdigest-publish-ab-"))
    workdir.mkdir(parents=True, exist_ok=True)
    compile_bytecode()
    if args.against is not None:
        import compileall

        compileall.compile_dir(str(args.against), quiet=2, workers=0)
    repository = repository_of(args.db)
    sides: list[tuple[str, Path | None]] = [("new", None)]
    if args.against is not None:
        sides.insert(0, ("old", args.against.resolve()))
    load = os.getloadavg()
    stages: list[Stage] = []
    for round_ in range(args.rounds):
        for name, src in sides:
            db = workdir / f"{name}.db"
            fresh_copy(args.db, db)
            stages.append(publish(f"{name} {round_ + 1}", src, db, workdir / f"site-{name}", repository, args.jobs))
    end_load = os.getloadavg()
    print(f"{repository} from {args.db}, publish --jobs {args.jobs or 'default'}, {os.cpu_count()} CPUs")
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; at end: {end_load[0]:.2f}")
    print(f"{'run':10} {'wall s':>8} {'cpu s':>8} {'peak MB':>8}  exit")
    for stage in stages:
        print(f"{stage.name:10} {stage.seconds:8.2f} {stage.cpu_seconds:8.2f} {stage.peak_mb:8.0f}  {stage.exit_code}")
    if args.against is not None:
        differences = site_differences(workdir / "site-old", workdir / "site-new")
        files = sum(1 for _ in (workdir / "site-new").rglob("*"))
        print(
            f"sites ({files} paths): "
            + ("identical" if not differences else f"{len(differences)} differ, e.g. {differences[:5]}")
        )
        old_db, new_db = workdir / "old.db", workdir / "new.db"
        same_ids = narrative_rows(old_db, ids=True) == narrative_rows(new_db, ids=True)
        same = narrative_rows(old_db, ids=False) == narrative_rows(new_db, ids=False)
        # With several processes the rows' ids follow which process saved first.
        print(f"narrative rows: {'identical' if same else 'differ'}; with ids: {'identical' if same_ids else 'differ'}")
    return 1 if any(stage.exit_code for stage in stages) else 0


if __name__ == "__main__":
    raise SystemExit(main())
