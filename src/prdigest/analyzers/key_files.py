"""Which changed files a reader should look at first, and why.

Every eligible file (not generated, not binary) gets a priority and a reason:

1. core logic (source / core-logic), by changed lines;
2. dependency sources whose declared requirements changed (requirements, pyproject,
   setup, Dockerfile ``pip install``) and build scripts;
3. infrastructure (Dockerfiles, build and CI scripts);
4. CI configuration: first rank in a CI-only PR, last otherwise;
5. configuration, tests, docs, other.

Within a priority, files the PR points at come first (named in the title or body, discussed
in review threads, new source modules: `prdigest.analyzers.importance`), then the larger.
Small PRs (at most `KEY_FILE_CAP` eligible files) show them all; larger ones show the
best `KEY_FILE_CAP`. A PR with files always has at least one key file, falling back to
the largest generated or binary one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from prdigest.analyzers.dependencies.pairing import pair_entries
from prdigest.analyzers.dependencies.sources import declarations
from prdigest.analyzers.file_rules import is_lock_file
from prdigest.analyzers.importance import FileSignals, weight
from prdigest.models.facts import FileFact
from prdigest.models.pullrequest import FileChange

KEY_FILE_CAP = 6


@dataclass(frozen=True)
class KeyChoice:
    rank: int  # lower is more important
    reason: str  # English, kept as FileFact.key_reason
    code: str  # language-neutral, one of KEY_REASON_CODES
    params: dict[str, str] = field(default_factory=dict)


# Every key-file reason code; the label files (prdigest/words/<lang>/labels.toml) hold a sentence for each.
KEY_REASON_CODES = frozenset(
    {"ci-only", "requirements", "core-logic", "dependency-wiring", "infra", "ci", "config", "tests", "other", "largest"}
)


# The priority of each reason code, as `_choice` gives it (for ranking key files once chosen).
CODE_RANK = {
    "ci-only": 0,
    "core-logic": 0,
    "requirements": 1,
    "dependency-wiring": 2,
    "infra": 2,
    "ci": 3,
    "config": 3,
    "tests": 4,
    "other": 5,
    "largest": 5,
}


def requirements_changed(change: FileChange) -> bool:
    declared = declarations(change)
    if declared is None:
        return False
    return any(
        pair.before is None
        or pair.after is None
        or pair.before.requirement.normalized != pair.after.requirement.normalized
        for pair in pair_entries(declared)
    )


def _choice(fact: FileFact, change: FileChange, ci: bool, ci_only: bool) -> KeyChoice:
    lines = fact.additions + fact.deletions
    count = {"lines": str(lines)}
    if ci and ci_only:
        return KeyChoice(0, f"CI change in a CI-only PR ({lines} changed lines)", "ci-only", count)
    if requirements_changed(change):
        return KeyChoice(1, "declared requirements change here", "requirements")
    module = {"module": fact.module}
    if fact.category == "source" and fact.type == "core-logic":
        return KeyChoice(
            0, f"core logic ({fact.module or 'source'}), {lines} changed lines", "core-logic", module | count
        )
    if fact.type == "dependency-wiring":
        return KeyChoice(2, "installs or wires dependencies", "dependency-wiring")
    if fact.category == "infra":
        return KeyChoice(2, f"build / runtime infrastructure ({fact.module or 'infra'})", "infra", module)
    if ci:
        return KeyChoice(3, "CI configuration", "ci")
    if fact.category == "config":
        return KeyChoice(3, f"configuration ({fact.module or 'config'})", "config", module)
    if fact.category == "test":
        return KeyChoice(4, f"tests, {lines} changed lines", "tests", count)
    return KeyChoice(5, f"{fact.category} change, {lines} changed lines", "other", {"category": fact.category} | count)


def mark_key_files(
    facts: list[FileFact],
    changes: list[FileChange],
    ci_flags: list[bool],
    cap: int = KEY_FILE_CAP,
    signals: Mapping[str, FileSignals] | None = None,
) -> None:
    """Set ``is_key`` / ``key_reason`` / ``key_reason_code`` / ``key_reason_params`` on ``facts``
    (parallel to ``changes`` and ``ci_flags``); `signals` (by path) promote the files the PR
    points at within their priority."""
    known = signals or {}
    eligible = [i for i, f in enumerate(facts) if not f.generated and not f.binary]
    if not eligible:
        if facts:
            largest = max(range(len(facts)), key=lambda i: facts[i].additions + facts[i].deletions)
            facts[largest].is_key = True
            facts[largest].key_reason = "largest change (every file is generated or binary)"
            facts[largest].key_reason_code = "largest"
        return
    # a lock file changed beside the CI files pins what is installed: the PR is not CI only
    ci_only = all(ci_flags[i] for i in eligible) and not any(is_lock_file(f) for f in facts)
    choices = {i: _choice(facts[i], changes[i], ci_flags[i], ci_only) for i in eligible}

    def order(i: int) -> tuple[int, float, int, str]:
        pointed = weight(known.get(facts[i].path, FileSignals()), source=facts[i].category == "source")
        return (choices[i].rank, -pointed, -(facts[i].additions + facts[i].deletions), facts[i].path)

    ranked = sorted(eligible, key=order)
    for i in ranked[:cap]:
        facts[i].is_key = True
        facts[i].key_reason = choices[i].reason
        facts[i].key_reason_code = choices[i].code
        facts[i].key_reason_params = dict(choices[i].params)
