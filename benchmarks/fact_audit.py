"""Audit the cross-PR facts of a real history: what exposes lineage and reference errors.

    .venv/bin/python benchmarks/fact_audit.py PATH/TO/CLONE [--db DB] [--no-sync] [--json] [--sample N]

Runs ``prdigest sync git`` and ``prdigest analyze`` on the clone (into --db, default a new
file under /tmp), then prints from the store (its public read functions only):
relations by kind, number collisions in the clone and how the records resolved them, PRs
with incomplete data, dependency changes by kind, follow-ups found, reverted / restored PRs
and restore diffs, plus a sample of the strong relations with their evidence to read by hand.
``--no-sync`` reads an existing database as it is (e.g. one built by an older version, for
"before" figures).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from prdigest.models.pullrequest import PullRequest
from prdigest.sources.git.collisions import plan_collisions
from prdigest.sources.git.repository import default_branch, resolve_commit
from prdigest.store.lineage_queries import all_facts, incomplete_records, relation_counts, repositories_in
from prdigest.store.store import Store

PRDIGEST = [sys.executable, "-m", "prdigest"]
_STRONG = ("reverts", "restores", "follow-up-to", "followed-up-by", "depends-on", "prerequisite-for", "root-cause-in")


def _run(args: list[str]) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run([*PRDIGEST, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"prdigest {' '.join(args)} failed ({done.returncode})")
    return time.perf_counter() - started, (done.stdout + done.stderr).strip()


def _clone_collisions(clone: Path) -> dict[str, int]:
    branch = default_branch(clone, None)
    tip = resolve_commit(clone, branch)
    if tip is None:
        return {}
    plan = plan_collisions(clone, tip)
    return dict(Counter(c.resolution.value for c in plan.by_number.values()))


def audit(db: str, clone: Path, sample: int) -> dict[str, Any]:
    store = Store.open(db if "://" in db else f"sqlite:///{db}")
    try:
        repositories = repositories_in(store)
        if not repositories:
            raise SystemExit(f"no repository in {db}")
        repository = repositories[0]
        relations = relation_counts(store, repository)
        facts = all_facts(store, repository)
        records = incomplete_records(store, repository)
    finally:
        store.close()
    incomplete: Counter[str] = Counter()
    recorded_collisions: Counter[str] = Counter()
    for _number, record in records:
        pr = PullRequest.model_validate_json(record)
        incomplete.update(pr.incomplete)
        if pr.same_number_commits:
            part = any(c.files_changed and not c.another_pr for c in pr.same_number_commits)
            other = any(c.files_changed and c.another_pr for c in pr.same_number_commits)
            recorded_collisions[
                "a part of the same PR had a diff (marked incomplete)"
                if part
                else "another PR shares the number (noted)"
                if other
                else "empty commit noted"
            ] += 1
    dependency_kinds: Counter[str] = Counter()
    follow_ups: Counter[str] = Counter()
    lineage: Counter[str] = Counter()
    samples: list[str] = []
    follow_up_samples: list[str] = []
    for item in facts:
        for change in item.dependencies.changes:
            dependency_kinds.update([str(kind) for kind in change.kinds] or ["(none)"])
        lineage["PRs reverted"] += bool(item.lineage.reverted_by)
        lineage["PRs restored"] += bool(item.lineage.restored_by)
        lineage["restore diffs"] += len(item.lineage.restore_diffs)
        lineage["restore diffs identical"] += sum(d.identical for d in item.lineage.restore_diffs)
        lineage["deferral sentences"] += len(item.references.deferrals)
        for follow in item.lineage.followed_up_by:
            follow_ups[follow.matched_by] += 1
            follow_up_samples.append(
                f"#{item.number} followed up by #{follow.number} ({follow.matched_by}): "
                f"{follow.promise or follow.evidence!r}"
            )
        for ref in item.references.references:
            if ref.relation in _STRONG and ref.repository.lower() == repository.lower():
                samples.append(f"#{item.number} {ref.relation} #{ref.number} [{ref.where}]: {ref.evidence!r}")
    return {
        "repository": repository,
        "analyzed_prs": len(facts),
        "relations": dict(relations.most_common()),
        "collisions_in_clone": _clone_collisions(clone),
        "collisions_recorded": dict(recorded_collisions),
        "incomplete": dict(incomplete),
        "dependency_changes": dict(dependency_kinds.most_common()),
        "follow_ups": dict(follow_ups),
        "lineage": dict(lineage),
        "sample_relations": samples[:: max(1, len(samples) // max(1, sample))][:sample],
        "sample_follow_ups": follow_up_samples[:sample],
    }


def _print(report: dict[str, Any]) -> None:
    print(f"repository: {report['repository']} ({report['analyzed_prs']} analyzed PRs)")
    for key in (
        "relations",
        "collisions_in_clone",
        "collisions_recorded",
        "incomplete",
        "dependency_changes",
        "follow_ups",
        "lineage",
    ):
        values = report[key]
        shown = ", ".join(f"{k}={v}" for k, v in values.items()) if values else "none"
        print(f"{key.replace('_', ' ')}: {shown}")
    for key in ("sample_relations", "sample_follow_ups"):
        print(f"{key.replace('_', ' ')}:")
        for line in report[key]:
            print(f"  {line[:220]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("clone", type=Path)
    parser.add_argument("--db", help="database file or URL (default: a new file under /tmp)")
    parser.add_argument("--no-sync", action="store_true", help="read --db as it is; run neither sync nor analyze")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--sample", type=int, default=15, help="strong relations to list for reading by hand")
    args = parser.parse_args()
    db = args.db or str(Path(tempfile.mkdtemp(prefix="fact-audit-")) / "audit.db")
    if not args.no_sync:
        seconds, output = _run(["sync", "git", str(args.clone), "--db", db])
        print(f"sync ({seconds:.0f} s): {output}", file=sys.stderr)
        seconds, output = _run(["analyze", "--db", db])
        print(f"analyze ({seconds:.0f} s): {output.splitlines()[-1] if output else ''}", file=sys.stderr)
    report = audit(db, args.clone, args.sample)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        _print(report)


if __name__ == "__main__":
    main()
