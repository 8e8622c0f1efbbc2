"""The crash sweep: every command of prdigest over many real histories, counting what failed.

    .venv/bin/python benchmarks/corpus_sweep.py CLONE[=OWNER/NAME] ... [--workdir DIR]
        [--jobs 2] [--sample 6] [--since DATE] [--skip publish] [--json OUT]

For each local clone, against a fresh SQLite database: ``sync git``, ``analyze``, ``facts
--json`` of every PR (in process, as the command does it) and of a sample through the CLI,
``report`` of the sample in zh and en, full and brief, md/json/html (12 runs a PR), ``feed``
in zh and en, and ``publish`` (which writes every report of every PR). It prints, per history:
the PRs, the failures by step and error class (the target is 0), the number collisions by
how each was resolved and the evidence that chose the record, the gaps by code, and the wall
time of each step. The sample is every PR with a gap or a collision (up to half of it), then
PRs spread evenly over the history. A clone's repository name is taken from ``=OWNER/NAME``,
else from its origin remote. Exit status 1 when anything failed (a crash blocks a resolve).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from prdigest.errors import ConfigError
from prdigest.sources.git.repository import origin_name

PRDIGEST = [sys.executable, "-m", "prdigest"]
_REPORT_VARIANTS = [
    (lang, length, fmt) for lang in ("zh", "en") for length in ("full", "brief") for fmt in ("md", "json", "html")
]
_CLASS = re.compile(r"\b([A-Z][A-Za-z]+(?:Error|Exception|Facts|Report|Narrative))\b")


@dataclass
class History:
    clone: Path
    repository: str
    prs: int = 0
    failures: Counter[str] = field(default_factory=Counter)
    collisions: Counter[str] = field(default_factory=Counter)
    gaps: Counter[str] = field(default_factory=Counter)
    seconds: dict[str, float] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)

    def fail(self, step: str, what: str, detail: str) -> None:
        self.failures[f"{step}: {what}"] += 1
        if len(self.examples) < 8:
            self.examples.append(f"{step}: {detail[:300]}")


def _repository_of(clone: Path) -> str:
    try:
        return origin_name(clone)
    except ConfigError as error:
        raise SystemExit(f"{error} (as {clone}=OWNER/NAME)") from error


def _run(args: list[str], timeout: float = 3600) -> tuple[int, str, str, float]:
    started = time.perf_counter()
    done = subprocess.run([*PRDIGEST, *args], capture_output=True, text=True, timeout=timeout, check=False)
    return done.returncode, done.stdout, done.stderr, time.perf_counter() - started


def _error_class(text: str) -> str:
    """A short name for what failed: the exception or model named in the message, else its start."""
    found = _CLASS.search(text)
    if found is not None:
        return found.group(1)
    words = re.sub(r"[#/][\w./-]+|\d+", "N", text.removeprefix("error: ")).split()
    return " ".join(words[:6]) or "no message"


def _stage(history: History, step: str, args: list[str]) -> tuple[int, str, str]:
    code, out, err, seconds = _run(args)
    history.seconds[step] = history.seconds.get(step, 0.0) + seconds
    if code not in (0,):
        lines = [line for line in err.splitlines() if line.startswith("error:")] or [err.strip() or f"exit {code}"]
        for line in lines[:50]:
            history.fail(step, f"exit {code} {_error_class(line)}", line)
    return code, out, err


def _analysis_failures(history: History, err: str) -> None:
    # Each failed PR is one line "error: OWNER/NAME#N: the X analyzer failed (Class ...": by analyzer and class.
    for line in err.splitlines():
        found = re.search(r"the (\w+) analyzer failed \((\S+)", line)
        if found is not None:
            history.fail("analyze", f"{found.group(1)} {found.group(2)}", line)


def _facts_and_collisions(history: History, db: Path) -> list[int]:
    """Every PR's facts as `facts --json` makes them (in process); collisions and gaps counted.
    Returns the PR numbers, oldest first."""
    from prdigest.pipeline.analyze import ensure_facts
    from prdigest.store import Store

    started = time.perf_counter()
    numbers: list[int] = []
    with Store.open(f"sqlite:///{db}", create=False) as store:
        for pr in store.iter_prs(repository=history.repository):
            numbers.append(pr.number)
            for other in pr.same_number_commits:
                history.collisions["another PR" if other.another_pr else "same PR, other part"] += 1
            try:
                facts = ensure_facts(store, history.repository, pr.number)
                json.loads(facts.model_dump_json())
            except Exception as exc:  # the sweep counts every failure, of any kind
                history.fail("facts", type(exc).__name__, f"#{pr.number}: {exc}")
                continue
            history.gaps.update(str(gap) for gap in facts.coverage.gaps)
    history.seconds["facts (all, in process)"] = time.perf_counter() - started
    return sorted(numbers)


def _sample(history: History, db: Path, numbers: list[int], size: int) -> list[int]:
    from prdigest.store import Store

    marked: list[int] = []
    with Store.open(f"sqlite:///{db}", create=False) as store:
        for pr in store.iter_prs(repository=history.repository):
            if pr.incomplete or pr.same_number_commits:
                marked.append(pr.number)
    chosen = sorted(marked)[: max(1, size // 2)]
    step = max(1, len(numbers) // max(1, size - len(chosen)))
    for number in numbers[::step]:
        if len(chosen) >= size:
            break
        if number not in chosen:
            chosen.append(number)
    return chosen


def _sweep_reports(history: History, db: Path, sample: list[int]) -> None:
    for number in sample:
        ref = f"{history.repository}#{number}"
        _stage(history, "facts --json (CLI)", ["facts", ref, "--json", "--db", str(db)])
        for lang, length, fmt in _REPORT_VARIANTS:
            code, out, _err = _stage(
                history,
                "report",
                ["report", ref, "--lang", lang, "--length", length, "--format", fmt, "--no-llm", "--db", str(db)],
            )
            if code == 0 and fmt == "json":
                json.loads(out)


def _sweep_feed(history: History, db: Path) -> None:
    for lang in ("zh", "en"):
        code, out, _err = _stage(
            history, "feed", ["feed", history.repository, "--lang", lang, "--format", "json", "--db", str(db)]
        )
        if code in (0, 7) and out.strip():
            for item in json.loads(out).get("items", []):
                if item.get("verdict") is None:
                    history.fail("feed item", _error_class(item.get("paragraph", "")), item.get("paragraph", ""))


def sweep(clone: Path, repository: str, workdir: Path, args: argparse.Namespace) -> History:
    history = History(clone, repository)
    db = workdir / (repository.replace("/", "+") + ".db")
    for old in workdir.glob(db.name + "*"):
        old.unlink()
    started = time.perf_counter()
    sync_args = ["sync", "git", str(clone), "--repo", repository, "--db", str(db)]
    if args.since:
        sync_args += ["--since", args.since]
    _code, out, _err = _stage(history, "sync", sync_args)
    for line in out.splitlines():
        if line.startswith("number collisions:"):
            history.examples.append(line[:300])
    if not db.exists():
        history.seconds["wall"] = time.perf_counter() - started
        return history
    _code, _out, err = _stage(
        history, "analyze", ["analyze", "--repo", repository, "--jobs", str(args.jobs), "--db", str(db)]
    )
    _analysis_failures(history, err)
    numbers = _facts_and_collisions(history, db)
    history.prs = len(numbers)
    _sweep_reports(history, db, _sample(history, db, numbers, args.sample))
    _sweep_feed(history, db)
    if "publish" not in args.skip:
        out_dir = workdir / (repository.replace("/", "+") + "-site")
        _stage(
            history,
            "publish",
            ["publish", repository, "--out", str(out_dir), "--jobs", str(args.jobs), "--db", str(db)],
        )
    history.seconds["wall"] = time.perf_counter() - started
    return history


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{key} {value}" for key, value in sorted(counter.items())) or "none"


def print_table(histories: list[History]) -> None:
    print(
        "\n| history | PRs | failures (step: class) | collisions (commits noted) | gaps by code "
        "| sync s | analyze s | wall s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for h in histories:
        print(
            f"| {h.repository} | {h.prs:,} | {_counts(h.failures) if h.failures else '0'} | {_counts(h.collisions)} "
            f"| {_counts(h.gaps)} | {h.seconds.get('sync', 0):.1f} | {h.seconds.get('analyze', 0):.1f} "
            f"| {h.seconds.get('wall', 0):.1f} |"
        )
    total = sum(sum(h.failures.values()) for h in histories)
    print(f"\n{len(histories)} histories, {sum(h.prs for h in histories):,} PRs, {total} failures")
    for h in histories:
        for example in h.examples:
            print(f"  {h.repository}: {example}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("clones", nargs="+", help="CLONE or CLONE=OWNER/NAME")
    parser.add_argument("--workdir", type=Path, default=None, help="where the databases go (default: a temp dir)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sample", type=int, default=6, help="PRs per history run through every report variant")
    parser.add_argument("--since", default=None, help="sync only PRs merged since DATE")
    parser.add_argument("--skip", action="append", default=[], choices=["publish"])
    parser.add_argument("--json", type=Path, default=None, help="also write the figures as JSON here")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="prdigest-sweep-"))
    workdir.mkdir(parents=True, exist_ok=True)
    histories = []
    for spec in args.clones:
        path, _sep, name = spec.partition("=")
        clone = Path(path).resolve()
        repository = name or _repository_of(clone)
        print(f"==> {repository} ({clone})", file=sys.stderr, flush=True)
        history = sweep(clone, repository, workdir, args)
        print(
            f"    {history.prs:,} PRs, {sum(history.failures.values())} failures, "
            f"{history.seconds.get('wall', 0):.1f} s",
            file=sys.stderr,
            flush=True,
        )
        histories.append(history)
    print_table(histories)
    if args.json is not None:
        rows = [
            {
                "repository": h.repository,
                "prs": h.prs,
                "failures": dict(h.failures),
                "collisions": dict(h.collisions),
                "gaps": dict(h.gaps),
                "seconds": h.seconds,
            }
            for h in histories
        ]
        args.json.write_text(json.dumps(rows, indent=2), encoding="utf-8")
    raise SystemExit(1 if any(h.failures for h in histories) else 0)


if __name__ == "__main__":
    main()
