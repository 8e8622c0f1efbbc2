"""How often prdigest's relations between PRs agree with a careful reader's, by history.

    .venv/bin/python benchmarks/relation_agreement.py --clones DIR [--labels CSV]
        [--workdir DIR] [--tune OWNER/NAME ...]

The labels (``benchmarks/data/relation_labels.csv``) were written by reading each PR's
message and diff in a local clone, before looking at prdigest's output (six histories first;
fastapi, flask, setuptools and fmt later, scored blind once before rules were chosen on them;
starlette and click scored blind once on the rules of that round; uvicorn, werkzeug and typer
(102 labels) and then cobra, rich and jinja (63) written blind by another reader from git
alone, each set scored once before and once after the rules changed, the first then tuned on;
then echo, bat and attrs (76), written blind the same way and scored on rules none of their
PRs chose; then django-rest-framework, urllib3, chi and json (127), the same way, scored once
before django-rest-framework's and json's misses were read).
Two samples per
history, chosen evenly over it: ``refs`` (PRs whose message names other numbers: each
number's true relation, ``mentions`` when it is no relation of the PR) and ``blame`` (fixes
that change existing code: the earlier PR their bug came from, or ``none``).

Each history is synced from ``DIR/OWNER+NAME`` and analyzed into ``WORKDIR/OWNER+NAME.db``
(kept: a second run reuses it). It prints, per history and for the tuning and held-out
sets: relation precision and recall (a typed relation, not ``mentions``, counts as found
only with the labelled type), how many numbers that are no relation of the PR still show as
related, and root-cause precision and recall. With ``--tune``, the root-cause rule (lines,
share, central file only) is chosen on the tuning histories' labels and scored on the rest.
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path

from prdigest.analyzers.root_cause import RootCauseRule, central_paths, find_root_cause
from prdigest.models.facts import Facts
from prdigest.pipeline.lineage import link_repository
from prdigest.store.facts_store import get_facts
from prdigest.store.store import Store

PRDIGEST = [sys.executable, "-m", "prdigest"]
LABELS = Path(__file__).parent / "data" / "relation_labels.csv"
TYPED = {"fixes", "reverts", "restores", "follow-up-to", "depends-on", "root-cause"}


@dataclass
class Label:
    repository: str
    sample: str
    pr: int
    target: int | None
    relation: str
    reason: str


@dataclass
class Score:
    typed_labelled: int = 0
    typed_found: int = 0  # labelled typed, predicted with that type
    typed_predicted: int = 0  # predicted typed (among labelled numbers)
    typed_right: int = 0
    non_relations: int = 0
    non_relations_shown: int = 0
    causes_labelled: int = 0
    causes_predicted: int = 0
    causes_right: int = 0
    fixes: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, other: Score) -> None:
        for name in self.__dataclass_fields__:
            if name != "misses":
                setattr(self, name, getattr(self, name) + getattr(other, name))
        self.misses.extend(other.misses)


def read_labels(path: Path) -> list[Label]:
    with path.open(newline="", encoding="utf-8") as handle:
        return [
            Label(
                repository=row["repository"],
                sample=row["sample"],
                pr=int(row["pr"]),
                target=int(row["target"]) if row["target"].strip().isdigit() else None,
                relation=row["relation"].strip(),
                reason=row.get("reason", ""),
            )
            for row in csv.DictReader(handle)
        ]


def prepare(repository: str, clones: Path, workdir: Path) -> Path:
    db = workdir / f"{repository.replace('/', '+')}.db"
    clone = clones / repository.replace("/", "+")
    if not clone.exists():
        raise SystemExit(f"no clone of {repository} at {clone}")
    for args in (
        ["sync", "git", str(clone), "--repo", repository, "--db", str(db)],
        ["analyze", "--repo", repository, "--db", str(db)],
    ):
        done = subprocess.run([*PRDIGEST, *args], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"{repository}: prdigest {args[0]} failed: {done.stderr.strip()[-400:]}")
    return db


def predicted_relation(facts: Facts, target: int) -> str | None:
    for ref in facts.references.references:
        if ref.repository.lower() == facts.repository.lower() and ref.number == target:
            return "root-cause" if ref.relation == "root-cause-in" else ref.relation
    return None


def score_history(store: Store, repository: str, labels: list[Label], rule: RootCauseRule) -> Score:
    score = Score()
    cache: dict[int, Facts | None] = {}

    def facts_of(number: int) -> Facts | None:
        if number not in cache:
            cache[number] = get_facts(store, repository, number)
        return cache[number]

    for label in labels:
        facts = facts_of(label.pr)
        if facts is None:
            score.misses.append(f"{repository}#{label.pr}: not analyzed")
            continue
        if label.sample == "refs" and label.target is not None:
            predicted = predicted_relation(facts, label.target)
            wanted = label.relation
            if wanted in TYPED:
                score.typed_labelled += 1
                if predicted == wanted:
                    score.typed_found += 1
            else:
                score.non_relations += 1
                if predicted is not None:
                    score.non_relations_shown += 1
            if predicted in TYPED:
                score.typed_predicted += 1
                if predicted == wanted:
                    score.typed_right += 1
            if predicted != wanted and (predicted in TYPED or wanted in TYPED):
                score.misses.append(
                    f"{repository}#{label.pr} → #{label.target}: labelled {wanted}, found {predicted or 'nothing'}"
                )
        elif label.sample == "blame":
            score.fixes += 1
            found = (
                find_root_cause(facts.origins, facts.number, central_paths(facts), rule)
                if facts.origins is not None
                else None
            )
            cause = found.number if found is not None else None
            if label.relation == "root-cause":
                score.causes_labelled += 1
            if cause is not None:
                score.causes_predicted += 1
                if label.relation == "root-cause" and cause == label.target:
                    score.causes_right += 1
            labelled = label.target if label.relation == "root-cause" else None
            if cause != labelled:
                score.misses.append(
                    f"{repository}#{label.pr}: root cause labelled {labelled or 'none'}, found {cause or 'none'}"
                    + ("" if facts.origins is not None else " (not blamed)")
                )
    return score


def ratio(part: int, whole: int) -> str:
    return f"{part / whole:.2f} ({part}/{whole})" if whole else "—"


def f1(score: Score) -> float:
    p = score.causes_right / score.causes_predicted if score.causes_predicted else 0.0
    r = score.causes_right / score.causes_labelled if score.causes_labelled else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def row(name: str, score: Score) -> str:
    cells = [
        ratio(score.typed_right, score.typed_predicted),
        ratio(score.typed_found, score.typed_labelled),
        ratio(score.non_relations_shown, score.non_relations),
        ratio(score.causes_right, score.causes_predicted),
        ratio(score.causes_right, score.causes_labelled),
    ]
    return f"| {name} | {' | '.join(cells)} |"


RULES = [
    RootCauseRule(min_lines=lines, min_share=share, central_only=central)
    for lines, share, central in product((1, 2, 3), (0.34, 0.5, 0.67, 0.8), (True, False))
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clones", type=Path, required=True, help="directory of clones named OWNER+NAME")
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/relation-agreement"))
    parser.add_argument("--tune", nargs="*", default=[], help="histories the root-cause rule is chosen on")
    parser.add_argument("--misses", action="store_true", help="list every disagreement")
    args = parser.parse_args()
    labels = read_labels(args.labels)
    by_repo: dict[str, list[Label]] = defaultdict(list)
    for label in labels:
        by_repo[label.repository].append(label)
    args.workdir.mkdir(parents=True, exist_ok=True)
    stores: dict[str, Store] = {}
    for repository in sorted(by_repo):
        db = prepare(repository, args.clones, args.workdir)
        stores[repository] = Store.open(f"sqlite:///{db}")
    tune = set(args.tune)
    rule = RootCauseRule()
    if tune:

        def tuned(candidate: RootCauseRule) -> tuple[float, float]:
            total = Score()
            for repository in tune:
                total.add(score_history(stores[repository], repository, by_repo[repository], candidate))
            precision = total.causes_right / total.causes_predicted if total.causes_predicted else 0.0
            return f1(total), precision

        rule = max(RULES, key=tuned)
        print(f"root-cause rule chosen on {', '.join(sorted(tune))}: {rule}")
    for repository, store in stores.items():
        link_repository(store, repository, rule)  # the pass with the rule scored
    print(
        "\n| history | relation precision | relation recall | non-relations shown | root-cause precision "
        "| root-cause recall |\n|---|---|---|---|---|---|"
    )
    groups: dict[str, Score] = {"tuning": Score(), "held-out": Score()}
    for repository in sorted(by_repo):
        score = score_history(stores[repository], repository, by_repo[repository], rule)
        name = f"{repository}{' (tuning)' if repository in tune else ''}"
        print(row(name, score))
        groups["tuning" if repository in tune else "held-out"].add(score)
    for name, score in groups.items():
        if score.fixes or score.typed_labelled or score.non_relations:
            print(row(f"**{name}**", score))
    if args.misses:
        for name, score in groups.items():
            for miss in score.misses:
                print(f"{name}: {miss}")
    for store in stores.values():
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
