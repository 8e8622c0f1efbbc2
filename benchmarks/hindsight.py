"""Hindsight by verdict level: how many PRs later needed a revert or a fix.

    .venv/bin/python benchmarks/hindsight.py CLONE[=OWNER/NAME] [--db FILE] [--window DAYS]
        [--since DATE] [-v]

A label source no one can tune to: the history itself says which PRs went wrong. A PR counts
as *reverted* when a later PR reverted it (stated, or the reverted commit's SHA), and as
*fixed later* when a later fix changed lines it wrote (``git blame`` of the fix's parent, the
root-cause pass). Only events within --window days of the PR's merge count, and only PRs
merged at least --window days before the history's newest merge are counted, so every
counted PR had the whole window in which to be reverted or fixed.

The clone is synced and analyzed with the CLI into --db (a temp file by default; an existing
database is synced again, which only adds what is new). Prints, per verdict level, the PRs,
how many were reverted, fixed later, either, and the share; then the ratio of the in-depth
share to the skip share (above 1: the PRs the verdict sends readers to are the ones that went
wrong more often). With -v, every skip-level PR that later needed a revert or a fix.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from prdigest.errors import ConfigError
from prdigest.models.facts import Facts, LineageEvent
from prdigest.sources.git.repository import origin_name
from prdigest.store.lineage_queries import all_facts
from prdigest.store.store import Store

PRDIGEST = [sys.executable, "-m", "prdigest"]
LEVELS = ("read-in-depth", "quick-read", "skip")


@dataclass(frozen=True)
class Outcome:
    number: int
    level: str
    reverted: list[int]
    fixed: list[int]

    @property
    def went_wrong(self) -> bool:
        return bool(self.reverted or self.fixed)


def repository_of(clone: Path) -> str:
    try:
        return origin_name(clone)
    except ConfigError as error:
        raise SystemExit(f"{error} (as {clone}=OWNER/NAME)") from error


def sync_and_analyze(clone: Path, repository: str, db: Path, since: str | None) -> None:
    sync = [*PRDIGEST, "sync", "git", str(clone), "--db", str(db), "--repo", repository]
    if since:
        sync += ["--since", since]
    subprocess.run(sync, check=True)
    subprocess.run([*PRDIGEST, "analyze", "--repo", repository, "--db", str(db)], check=True)


def within(events: list[LineageEvent], merged: datetime, window: timedelta) -> list[int]:
    """The events that happened after the PR merged and no later than the window."""
    return sorted({e.number for e in events if e.merged_at is not None and merged < e.merged_at <= merged + window})


def outcomes(store: Store, repository: str, window: timedelta) -> tuple[list[Outcome], int]:
    """Every counted PR's level and hindsight, and how many were left out as too recent."""
    merged_at = {s.number: s.merged_at for s in store.list_prs(repository=repository) if s.merged_at is not None}
    if not merged_at:
        return [], 0
    settled_before = max(merged_at.values()) - window
    counted: list[Outcome] = []
    too_recent = 0
    facts: Facts
    for facts in all_facts(store, repository):
        merged = merged_at.get(facts.number)
        if merged is None:
            continue
        if merged > settled_before:
            too_recent += 1
            continue
        lineage = facts.lineage
        counted.append(
            Outcome(
                number=facts.number,
                level=facts.verdict.level.value,
                reverted=within(list(lineage.reverted_by), merged, window),
                fixed=within(list(lineage.fixed_by), merged, window),
            )
        )
    return counted, too_recent


def share(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    -"


def print_table(repository: str, counted: list[Outcome], too_recent: int, window_days: int) -> None:
    print(f"{repository}: {len(counted)} PRs merged at least {window_days} days before the newest merge")
    print(f"  ({too_recent} more recent ones left out: they have not had the whole window)")
    print(f"  {'level':<14} {'PRs':>6} {'reverted':>9} {'fixed later':>12} {'either':>7} {'share':>7}")
    by_level: dict[str, Counter[str]] = {level: Counter() for level in LEVELS}
    for outcome in counted:
        row = by_level[outcome.level]
        row["prs"] += 1
        row["reverted"] += bool(outcome.reverted)
        row["fixed"] += bool(outcome.fixed)
        row["either"] += outcome.went_wrong
    for level in LEVELS:
        row = by_level[level]
        print(
            f"  {level:<14} {row['prs']:>6} {row['reverted']:>9} {row['fixed']:>12} {row['either']:>7}"
            f" {share(row['either'], row['prs']):>7}"
        )
    deep, skip = by_level["read-in-depth"], by_level["skip"]
    if deep["prs"] and skip["prs"] and skip["either"]:
        ratio = (deep["either"] / deep["prs"]) / (skip["either"] / skip["prs"])
        print(f"  in-depth share / skip share: {ratio:.2f}")
    else:
        print("  in-depth share / skip share: - (a level has no PRs, or no skip-level PR went wrong)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("clone", help="a local clone, optionally CLONE=OWNER/NAME")
    parser.add_argument("--db", type=Path, default=None, help="SQLite database to sync into (default: a temp file)")
    parser.add_argument("--window", type=int, default=90, help="days after the merge a revert or fix counts")
    parser.add_argument("--since", default=None, help="sync only PRs merged since DATE")
    parser.add_argument("-v", "--verbose", action="store_true", help="list the skip-level PRs that went wrong")
    args = parser.parse_args()
    path, _, named = args.clone.partition("=")
    clone = Path(path)
    if not (clone / ".git").exists() and not (clone / "HEAD").exists():
        raise SystemExit(f"{clone}: not a git clone")
    repository = named or repository_of(clone)
    db = args.db or Path(tempfile.mkdtemp(prefix="prdigest-hindsight-")) / "hindsight.db"
    sync_and_analyze(clone, repository, db, args.since)
    window = timedelta(days=args.window)
    with Store.open(f"sqlite:///{db}") as store:
        counted, too_recent = outcomes(store, repository, window)
    print_table(repository, counted, too_recent, args.window)
    if args.verbose:
        for outcome in counted:
            if outcome.level == "skip" and outcome.went_wrong:
                refs = ", ".join(f"reverted by #{n}" for n in outcome.reverted)
                refs += (", " if refs and outcome.fixed else "") + ", ".join(f"fixed by #{n}" for n in outcome.fixed)
                print(f"  skip #{outcome.number}: {refs}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
