"""How far the reading verdict agrees with hand labels of real PRs.

    .venv/bin/python benchmarks/verdict_agreement.py --clones DIR [--labels FILE] [--workdir DIR] [--fresh] [-v]

The labels (benchmarks/data/verdict_labels.csv: repository, number, label, reason) were written
by reading each PR's commit. For every labelled repository, its clone is looked up in --clones
as ``owner+name`` (e.g. ``encode+httpx``), synced and analyzed with the CLI into a database
under --workdir (kept between runs; --fresh redoes them), and each labelled PR's stored verdict
is compared with its label. Prints the exact agreement (target >= 70%), the confusion matrix,
the share of in-depth <-> skip swaps (target < 3%), agreement per repository, and with -v every
disagreement with the label's reason.
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from prdigest.store.facts_store import get_facts
from prdigest.store.store import Store

LABELS = Path(__file__).with_name("data") / "verdict_labels.csv"
LEVELS = ("in-depth", "quick", "skip")
_LEVEL_OF_VERDICT = {"read-in-depth": "in-depth", "quick-read": "quick", "skip": "skip"}
PRDIGEST = [sys.executable, "-m", "prdigest"]


def _database(clone: Path, repository: str, workdir: Path, fresh: bool) -> Path:
    db = workdir / f"{repository.replace('/', '+')}.db"
    if fresh:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
    subprocess.run([*PRDIGEST, "sync", "git", str(clone), "--db", str(db), "--repo", repository], check=True)
    subprocess.run([*PRDIGEST, "analyze", "--repo", repository, "--db", str(db)], check=True)
    return db


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clones", type=Path, required=True, help="folder holding owner+name clones")
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "prdigest-verdict-bench")
    parser.add_argument("--fresh", action="store_true", help="sync and analyze from empty databases")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every disagreement")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    with args.labels.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    by_repository: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in rows:
        by_repository[row["repository"]].append(row)

    confusion: Counter[tuple[str, str]] = Counter()
    per_repository: dict[str, Counter[bool]] = {}
    missing = 0
    for repository, labelled in sorted(by_repository.items()):
        clone = args.clones / repository.replace("/", "+")
        if not clone.is_dir():
            print(f"{repository}: no clone at {clone}, {len(labelled)} labels skipped")
            missing += len(labelled)
            continue
        db = _database(clone, repository, args.workdir, args.fresh)
        counts: Counter[bool] = Counter()
        with Store.open(f"sqlite:///{db}") as store:
            for row in labelled:
                facts = get_facts(store, repository, int(row["number"]))
                if facts is None:
                    missing += 1
                    continue
                got = _LEVEL_OF_VERDICT[facts.verdict.level.value]
                confusion[(row["label"], got)] += 1
                counts[got == row["label"]] += 1
                if args.verbose and got != row["label"]:
                    reasons = ", ".join(f"{r.code} {r.weight:+.1f}" for r in facts.verdict.reasons[:4])
                    print(f"  {repository}#{row['number']}: label {row['label']}, verdict {got} ({reasons})")
                    print(f"      label's reason: {row['reason']}")
        per_repository[repository] = counts

    total = sum(confusion.values())
    if not total:
        print("no labelled PR found")
        return 1
    agree = sum(confusion[(level, level)] for level in LEVELS)
    swaps = confusion[("in-depth", "skip")] + confusion[("skip", "in-depth")]
    print(f"\nlabelled PRs compared: {total} (missing: {missing})")
    print(f"exact agreement: {agree / total:.1%} (target >= 70%)")
    print(f"in-depth <-> skip swaps: {swaps / total:.1%} (target < 3%)")
    print("\nconfusion (rows: hand label, columns: verdict)")
    print(f"{'':10}" + "".join(f"{level:>10}" for level in LEVELS))
    for label in LEVELS:
        print(f"{label:10}" + "".join(f"{confusion[(label, got)]:>10}" for got in LEVELS))
    print("\nper repository")
    for repository, counts in per_repository.items():
        n = counts[True] + counts[False]
        if n:
            print(f"  {repository:28} {counts[True] / n:6.1%} of {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
