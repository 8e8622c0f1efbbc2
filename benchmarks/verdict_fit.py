"""Held-out figures for the reading verdict: leave-one-repository-out, next to in-sample.

    .venv/bin/python benchmarks/verdict_fit.py --clones DIR [--labels FILE] [--workdir DIR]
        [--calibrated OWNER/NAME ...] [--write-model FILE] [-v]

Each labelled PR's stored verdict reasons (code and weight, from ``analyze``) are read from
the databases ``verdict_agreement.py`` builds. Three figures, each as exact agreement and
in-depth <-> skip swaps:

- **rules as shipped**, split into the histories the hand-set weights were calibrated on
  (``--calibrated``) and the others: the second is the rules' only held-out figure;
- **fitted, in-sample**: per-reason multipliers and the two level thresholds fitted on every
  label (coordinate ascent over a small grid; objective: agreement minus twice the swaps);
- **fitted, leave-one-repository-out**: each history scored by a fit made without it.

The gap between the last two says how far a fit carries to a history it never saw. With
``--write-model``, the fit on every label is written as TOML with its training figures.
"""

from __future__ import annotations

import argparse
import csv
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from verdict_agreement import _LEVEL_OF_VERDICT, LABELS, LEVELS, _database

from prdigest.analyzers.verdict import default_model
from prdigest.analyzers.verdict.judge import INCOMPLETE_CAP, NO_CORE_CAP, UNCAPPING_CODES
from prdigest.store.facts_store import get_facts
from prdigest.store.store import Store

# Reasons whose weight a fit may scale; the negatives share one multiplier. The size of the
# core change is fitted as its own steps (``core_lines``), its multiplier stays 1.0.
POSITIVE_CODES = (
    "new-module",
    "public-api",
    "fix",
    "lineage",
    "design-trap",
    "dependency-decision",
    "api-default",
    "discussion",
    "fan-in",
    "explained",
    "review-changed",
)
NEGATIVE = "negatives"
MULTIPLIERS = (0.0, 0.5, 1.0, 1.5, 2.0)
NEGATIVE_MULTIPLIERS = (0.5, 1.0, 1.5, 2.0)
STEP_WEIGHTS = tuple(x / 4 for x in range(0, 17))  # 0.0 .. 4.0
# The floors of the fitted size steps: the hand-set ones with the smallest split in two.
STEP_FLOORS = (1, 3, 5, 40, 150, 300, 600)
DEEP_THRESHOLDS = tuple(x / 4 for x in range(8, 25))  # 2.0 .. 6.0
QUICK_THRESHOLDS = tuple(x / 4 for x in range(1, 11))  # 0.25 .. 2.5
DEFAULT_CALIBRATED = ("encode/httpx", "fastapi/fastapi", "huggingface/accelerate", "pallets/flask", "psf/black")


@dataclass(frozen=True)
class Case:
    repository: str
    number: int
    label: str
    shipped: str
    weights: tuple[tuple[str, float], ...]  # (code, weight) of every reason but the core size
    core_lines: int  # lines of core logic (0: none), weighed by the model's size steps
    has_core: bool
    incomplete: bool
    reason: str


def _shipped_steps() -> dict[int, float]:
    shipped = default_model()
    return {floor: shipped.core_weight(floor) for floor in STEP_FLOORS}


@dataclass
class Model:
    multipliers: dict[str, float] = field(default_factory=lambda: dict.fromkeys((*POSITIVE_CODES, NEGATIVE), 1.0))
    deep: float = field(default_factory=lambda: default_model().read_in_depth)
    quick: float = field(default_factory=lambda: default_model().quick_read)
    steps: dict[int, float] = field(default_factory=_shipped_steps)  # least lines -> weight

    def copy(self) -> Model:
        return Model(dict(self.multipliers), self.deep, self.quick, dict(self.steps))

    def core_weight(self, lines: int) -> float:
        return next((self.steps[floor] for floor in sorted(self.steps, reverse=True) if lines >= floor), 0.0)

    def level(self, case: Case) -> str:
        score = self.core_weight(case.core_lines)
        for code, weight in case.weights:
            key = code if weight > 0 and code in self.multipliers else NEGATIVE if weight < 0 else None
            score += weight * (self.multipliers[key] if key else 1.0)
        positive = {code for code, weight in case.weights if weight > 0}
        if not case.has_core and not positive & set(UNCAPPING_CODES):
            score = min(score, NO_CORE_CAP)
        if case.incomplete:
            score = min(score, INCOMPLETE_CAP)
        level = "in-depth" if score >= self.deep else "quick" if score >= self.quick else "skip"
        # judge's caps hold whatever the thresholds: no core logic or incomplete data, no deeper
        capped = (not case.has_core and not positive & set(UNCAPPING_CODES)) or case.incomplete
        return "quick" if level == "in-depth" and capped else level


@dataclass
class Figures:
    total: int = 0
    agree: int = 0
    swaps: int = 0
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, label: str, got: str) -> None:
        self.total += 1
        self.agree += label == got
        self.swaps += {label, got} == {"in-depth", "skip"}
        self.confusion[(label, got)] += 1

    def line(self) -> str:
        if not self.total:
            return "no PRs"
        return f"{self.agree / self.total:6.1%} exact of {self.total:4}, swaps {self.swaps / self.total:5.1%}"


def objective(model: Model, cases: Sequence[Case]) -> float:
    agree = swaps = 0
    for case in cases:
        got = model.level(case)
        agree += got == case.label
        swaps += {got, case.label} == {"in-depth", "skip"}
    return (agree - 2 * swaps) / max(1, len(cases))


def fit(cases: Sequence[Case], passes: int = 5) -> Model:
    """Coordinate ascent from the shipped weights; ties keep the value nearer the shipped one.
    The size steps stay monotone: more lines never weigh less."""
    model = Model()
    best = objective(model, cases)
    for _ in range(passes):
        improved = False
        floors = sorted(model.steps)
        for index, floor in enumerate(floors):
            low = model.steps[floors[index - 1]] if index else 0.0
            high = model.steps[floors[index + 1]] if index + 1 < len(floors) else max(STEP_WEIGHTS)
            current = model.steps[floor]
            for value in sorted(STEP_WEIGHTS, key=lambda v: abs(v - current)):
                if not low <= value <= high:
                    continue
                trial = model.copy()
                trial.steps[floor] = value
                score = objective(trial, cases)
                if score > best + 1e-9:
                    model, best, improved = trial, score, True
        for key in (*POSITIVE_CODES, NEGATIVE):
            grid = NEGATIVE_MULTIPLIERS if key == NEGATIVE else MULTIPLIERS
            for value in sorted(grid, key=lambda v: abs(v - 1.0)):
                trial = model.copy()
                trial.multipliers[key] = value
                score = objective(trial, cases)
                if score > best + 1e-9:
                    model, best, improved = trial, score, True
        for deep in sorted(DEEP_THRESHOLDS, key=lambda v: abs(v - 3.5)):
            for quick in sorted(QUICK_THRESHOLDS, key=lambda v: abs(v - 1.0)):
                if quick >= deep:
                    continue
                trial = model.copy()
                trial.deep, trial.quick = deep, quick
                score = objective(trial, cases)
                if score > best + 1e-9:
                    model, best, improved = trial, score, True
        if not improved:
            break
    return model


def load_cases(clones: Path, labels: Path, workdir: Path) -> list[Case]:
    with labels.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    by_repository: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in rows:
        by_repository[row["repository"]].append(row)
    cases: list[Case] = []
    for repository, labelled in sorted(by_repository.items()):
        clone = clones / repository.replace("/", "+")
        if not clone.is_dir():
            print(f"{repository}: no clone at {clone}, {len(labelled)} labels skipped")
            continue
        db = _database(clone, repository, workdir, False)
        with Store.open(f"sqlite:///{db}") as store:
            for row in labelled:
                facts = get_facts(store, repository, int(row["number"]))
                if facts is None:
                    print(f"{repository}#{row['number']}: not in the database, skipped")
                    continue
                reasons = facts.verdict.reasons
                sizes = [r for r in reasons if r.items and r.items[0].template == "core-change.lines"]
                core_lines = int(str(sizes[0].items[0].params["lines"])) if sizes else 0
                cases.append(
                    Case(
                        repository=repository,
                        number=int(row["number"]),
                        label=row["label"],
                        shipped=_LEVEL_OF_VERDICT[facts.verdict.level.value],
                        weights=tuple((r.code, r.weight) for r in reasons if r not in sizes),
                        core_lines=core_lines,
                        has_core=any(r.code == "core-change" for r in reasons),
                        incomplete=any(r.code == "incomplete-data" for r in reasons),
                        reason=row["reason"],
                    )
                )
    return cases


def score(cases: Iterable[Case], level: Callable[[Case], str]) -> Figures:
    figures = Figures()
    for case in cases:
        figures.add(case.label, level(case))
    return figures


def confusion_table(figures: Figures) -> str:
    lines = [f"{'':10}" + "".join(f"{level:>10}" for level in LEVELS)]
    for label in LEVELS:
        lines.append(f"{label:10}" + "".join(f"{figures.confusion[(label, got)]:>10}" for got in LEVELS))
    return "\n".join(lines)


def write_model(path: Path, model: Model, in_sample: Figures, held_out: Figures, cases: Sequence[Case]) -> None:
    """The fit in ``data/verdict_model.toml``'s shape. The stored weights were already scaled
    by the shipped model, so the fit's multipliers are composed with the shipped ones."""
    shipped = default_model()
    repositories = sorted({case.repository for case in cases})
    lines = [
        "# The reading verdict's fitted weights (benchmarks/verdict_fit.py --write-model).",
        f"# Trained on {len(cases)} hand-labelled PRs of {len(repositories)} histories:",
        *(f"#   {name}" for name in repositories),
        f"# in-sample: {in_sample.line()}",
        f"# leave-one-repository-out: {held_out.line()}",
        f"read_in_depth = {model.deep}",
        f"quick_read = {model.quick}",
        "",
        "",
        "[multipliers]",
        '"core-change" = 1.0',
        *(f'"{key}" = {value * shipped.multipliers.get(key, 1.0)}' for key, value in model.multipliers.items()),
        "",
        "# the weight of a change's lines of core logic: least lines = weight",
        "[core_lines]",
        *(f'"{floor}" = {weight}' for floor, weight in sorted(model.steps.items())),
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clones", type=Path, required=True, help="folder holding owner+name clones")
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "prdigest-verdict-bench")
    parser.add_argument("--calibrated", nargs="*", default=list(DEFAULT_CALIBRATED))
    parser.add_argument("--write-model", type=Path, default=None)
    parser.add_argument("-v", "--verbose", action="store_true", help="print the held-out disagreements")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    cases = load_cases(args.clones, args.labels, args.workdir)
    if not cases:
        print("no labelled PR found")
        return 1
    calibrated = {name.lower() for name in args.calibrated}
    tuned = [c for c in cases if c.repository.lower() in calibrated]
    others = [c for c in cases if c.repository.lower() not in calibrated]
    print("rules as shipped")
    print(f"  calibration histories ({len(tuned)} PRs): {score(tuned, lambda c: c.shipped).line()}")
    print(f"  other histories       ({len(others)} PRs): {score(others, lambda c: c.shipped).line()}")
    shipped_all = score(cases, lambda c: c.shipped)
    print(f"  all                                 {shipped_all.line()}")
    reproduced = sum(Model().level(c) == c.shipped for c in cases)
    print(f"  (the fit's scorer reproduces {reproduced}/{len(cases)} shipped levels)")

    whole = fit(cases)
    in_sample = score(cases, whole.level)
    held_out = Figures()
    per_repository: dict[str, tuple[Figures, Figures]] = {}
    disagreements: list[str] = []
    for repository in sorted({c.repository for c in cases}):
        train = [c for c in cases if c.repository != repository]
        test = [c for c in cases if c.repository == repository]
        model = fit(train)
        figures = score(test, model.level)
        per_repository[repository] = (score(test, lambda c: c.shipped), figures)
        for case in test:
            got = model.level(case)
            held_out.add(case.label, got)
            if got != case.label:
                disagreements.append(f"  {repository}#{case.number}: label {case.label}, fit {got}; {case.reason}")
    print("\nfitted")
    print(f"  in-sample                           {in_sample.line()}")
    print(f"  leave-one-repository-out            {held_out.line()}")
    print(f"  model on every label: deep >= {whole.deep}, quick >= {whole.quick}, multipliers {whole.multipliers}")
    print(f"  core-line steps {whole.steps}")
    if tuned and others:
        from_calibration = fit(tuned)
        print(
            f"  fit on the calibration histories, scored on the others: {score(others, from_calibration.level).line()}"
        )
    print("\nper history: shipped rules | fit without this history")
    for repository, (shipped, fitted) in per_repository.items():
        print(f"  {repository:28} {shipped.line()} | {fitted.line()}")
    print("\nconfusion, rules as shipped (rows: label, columns: verdict)")
    print(confusion_table(shipped_all))
    print("\nconfusion, leave-one-repository-out fit")
    print(confusion_table(held_out))
    if args.verbose:
        print("\nheld-out disagreements")
        print("\n".join(disagreements))
    if args.write_model:
        write_model(args.write_model, whole, in_sample, held_out, cases)
        print(f"\nwrote {args.write_model}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
