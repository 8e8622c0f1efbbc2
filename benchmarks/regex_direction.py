"""How far the direction of a changed regex (widened / narrowed / changed) agrees with labels.

    .venv/bin/python benchmarks/regex_direction.py [--labels FILE] [-v]

The labels (benchmarks/data/regex_direction_labels.csv: repository, number, path, before,
after, label) are the regex edits prdigest found on seven public git histories, each labelled
by reading the two patterns: what strings each matches. Prints the exact agreement, the
confusion matrix, and the claims that contradict their label (a pattern said to widen that
does not): the figure that must stay at 0. The rule has no parameter fitted to these cases.
"""

from __future__ import annotations

import argparse
import csv
from collections import Counter
from pathlib import Path

from prdigest.analyzers.regex_direction import regex_direction

LABELS = Path(__file__).with_name("data") / "regex_direction_labels.csv"
DIRECTIONS = ("widened", "narrowed", "changed")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("-v", "--verbose", action="store_true", help="print every disagreement")
    args = parser.parse_args()
    with args.labels.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    confusion: Counter[tuple[str, str]] = Counter()
    for row in rows:
        got = regex_direction(row["before"], row["after"])
        confusion[(row["label"], got)] += 1
        if args.verbose and got != row["label"]:
            where = f"{row['repository']}#{row['number']}"
            print(f"  {where} {row['before']!r} -> {row['after']!r}: {row['label']}, got {got}")
    exact = sum(n for (label, got), n in confusion.items() if label == got)
    contrary = sum(n for (label, got), n in confusion.items() if got != "changed" and got != label)
    print(f"{len(rows)} labelled regex edits: exact {exact}/{len(rows)} ({exact / max(1, len(rows)):.0%})")
    print(f"claims contrary to the label: {contrary}")
    print("label \\ got   " + "".join(f"{d:>10}" for d in DIRECTIONS))
    for label in DIRECTIONS:
        print(f"{label:<14}" + "".join(f"{confusion[(label, got)]:>10}" for got in DIRECTIONS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
