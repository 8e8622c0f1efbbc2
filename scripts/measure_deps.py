"""Dependency facts of a whole history, counted so two runs (before/after a change) compare.

    .venv/bin/python scripts/measure_deps.py --db before.db [--repo OWNER/NAME]
    .venv/bin/python scripts/measure_deps.py --clone /path/to/clone --db new.db   # sync + analyze first
    ... --sample 30 --seed 1   # also print 30 random changes with their diffs' lines, for a hand check

Prints: dependency changes by kind and by scope, the dependency risk evidence templates
(image claims, admission statements, locks, downgrades), the verdict's dependency-practice
reasons, and the ledger's size (when the schema has it).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

from prdigest.store import Store
from prdigest.store.facts_store import get_facts

_DEPENDENCY_TAGS = (
    "dependency-constraint-change",
    "version-lock",
    "future-version-regression-risk",
    "dependency-downgrade",
    "dependency-upgrade",
    "runtime-image-impact",
)


def _stem(text: str) -> str:
    return text.lower().replace("-", "").replace("_", "")


def _prdigest(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "prdigest", *args], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", required=True)
    parser.add_argument("--clone", type=Path, default=None)
    parser.add_argument("--repo", default=None)
    parser.add_argument("--sample", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    url = args.db if "://" in args.db else f"sqlite:///{args.db}"
    if args.clone is not None:
        _prdigest("sync", "git", str(args.clone), "--db", args.db)
        _prdigest("analyze", "--db", args.db)
    store = Store.open(url)
    kinds: Counter[str] = Counter()
    main_kinds: Counter[str] = Counter()
    scopes: Counter[str] = Counter()
    templates: Counter[str] = Counter()
    practice = 0
    changes = []
    prs = store.list_prs(repository=args.repo)
    for summary in prs:
        facts = get_facts(store, summary.repository, summary.number)
        if facts is None:
            continue
        for change in facts.dependencies.changes:
            kinds.update(change.kinds)
            main_kinds[",".join(change.kinds)] += 1
            scopes[change.scope] += 1
            changes.append((summary.repository, summary.number, change))
        for tag in facts.risks.tags:
            if tag.tag in _DEPENDENCY_TAGS:
                templates.update(item.template for item in tag.items)
        practice += any(r.code == "dependency-practice" for r in facts.verdict.reasons)
    print(f"pull requests: {len(prs)}; dependency changes: {len(changes)}")
    print("by kind:", dict(sorted(kinds.items())))
    print("by scope:", dict(sorted(scopes.items())))
    print("evidence:", dict(sorted(templates.items())))
    print("dependency-practice reasons:", practice)
    if args.sample:
        rng = random.Random(args.seed)
        for repository, number, change in rng.sample(changes, min(args.sample, len(changes))):
            pr = store.get_pr(repository, number)
            lines = [
                line
                for f in pr.files
                if f.path == change.path and f.patch
                for line in f.patch.splitlines()
                if line[:1] in "+-" and _stem(change.package)[:5] in _stem(line)
            ]
            print(
                f"\n#{number} {change.path} [{change.scope} {change.group}] {change.kinds} "
                f"{change.before!r} -> {change.after!r} cond={change.condition} repl={change.replaced_by}"
            )
            for line in lines[:6]:
                print("   ", line[:160])
    store.close()


if __name__ == "__main__":
    main()
