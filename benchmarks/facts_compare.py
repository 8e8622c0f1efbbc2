"""Compare the stored analysis of two SQLite databases synced from the same history.

    .venv/bin/python benchmarks/facts_compare.py A.db B.db [--show 5]

The proof that a change to the analyzers altered nothing: analyze copies of one synced
database with the old code and with the new, then compare. Every row the analysis stores
is compared per PR (repository, number): facts (cache key, verdict, score, body), labels,
outgoing links, dependency-ledger rows (their order within the PR included, row ids
aside) and the search rows the analysis writes. Prints the counts and the first
differences; exits 1 when anything differs.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

_PR = "join pull_requests p on p.id = t.pull_request_id join repositories r on r.id = p.repository_id"
_QUERIES = {
    "facts": f"select r.full_name, p.number, t.cache_key, t.verdict, t.score, t.body from facts t {_PR}",
    "fact_labels": f"select r.full_name, p.number, t.kind, t.value from fact_labels t {_PR} order by t.kind, t.value",
    "pr_links": (
        "select r.full_name, p.number, t.target_repository, t.target_number, t.target_kind, t.relation, t.found_in,"
        f" t.evidence from pr_links t {_PR} order by t.id"
    ),
    "dependency_changes": (
        "select r.full_name, p.number, t.position, t.package, t.path, t.before, t.after, t.kinds, t.scope,"
        f" t.condition, t.replaced_by from dependency_changes t {_PR} order by t.position"
    ),
    "pr_search": (
        "select r.full_name, p.number, t.stamp, t.title, t.body, t.comments, t.report from pr_search t"
        " join pull_requests p on p.id = t.rowid join repositories r on r.id = p.repository_id"
    ),
}


def rows_by_pr(path: Path, query: str) -> dict[tuple[str, int], list[tuple[Any, ...]]]:
    found: dict[tuple[str, int], list[tuple[Any, ...]]] = defaultdict(list)
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
        for row in connection.execute(query):
            found[(row[0], row[1])].append(tuple(row[2:]))
    return found


def _first_difference(a: str, b: str) -> str:
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"at char {at}: {a[max(0, at - 60) : at + 60]!r} vs {b[max(0, at - 60) : at + 60]!r}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("--show", type=int, default=5, help="differences to print per table")
    args = parser.parse_args()
    differs = False
    for table, query in _QUERIES.items():
        left, right = rows_by_pr(args.a, query), rows_by_pr(args.b, query)
        keys = sorted(set(left) | set(right))
        different = [key for key in keys if left.get(key) != right.get(key)]
        rows = sum(map(len, left.values()))
        print(f"{table:20} PRs {len(left):6} vs {len(right):6}  rows {rows:7}  differ {len(different)}")
        for key in different[: args.show]:
            differs = True
            a, b = left.get(key, []), right.get(key, [])
            detail = f"{len(a)} rows vs {len(b)}"
            if table == "facts" and a and b:
                detail = _first_difference(str(a[0]), str(b[0]))
            print(f"  {key[0]}#{key[1]}: {detail}")
        differs = differs or bool(different)
    print("identical" if not differs else "DIFFERENT")
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main())
