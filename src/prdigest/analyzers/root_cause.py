"""Which earlier PR a fix's bug came from, decided from blame counts (`Facts.origins`).

Pure: the cross-PR pass (pipeline/lineage.py) calls it with the fix's origins and the files
its central change is in, and writes what it finds both ways ("root cause in #N" on the
fix, "fixed by" on #N). Only the central files count when the fix has some: a fix of
`redirect.py` that also tidies a lint configuration is not caused by whoever wrote that
configuration. The bar is a share of the counted lines, not a guess: below it, nothing.
A PR that only moved or re-wrapped the lines (its diff proves it; `LineOrigin.moved_by`) did
not write the bug: the PR that wrote them is counted (``past_moves``; False counts the
mover, as plain blame does).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from prdigest.models.facts import Facts, LineOrigins


@dataclass(frozen=True)
class RootCauseRule:
    min_lines: int = 2
    min_share: float = 0.5
    central_only: bool = True
    past_moves: bool = True


@dataclass(frozen=True)
class RootCauseFinding:
    number: int
    commit: str
    lines: int
    of_lines: int
    paths: tuple[str, ...]


def central_paths(facts: Facts) -> set[str]:
    """The file of a PR's central change: its first key source file (the symbols analyzer's
    `key_order`), else its source file with the most changed lines."""
    sources = [f for f in facts.files.files if f.category == "source" and not f.generated]
    source_paths = {f.path for f in sources}
    for path in facts.symbols.key_order:
        if path in source_paths:
            return {path}
    if not sources:
        return set()
    top = max(sources, key=lambda f: (f.additions + f.deletions, f.path))
    return {top.path}


def find_root_cause(
    origins: LineOrigins, own: int, central: set[str], rule: RootCauseRule = RootCauseRule()
) -> RootCauseFinding | None:
    counted = set(origins.lines_by_path)
    if rule.central_only and counted & central:
        counted &= central
    total = sum(origins.lines_by_path[path] for path in counted)
    if total < rule.min_lines:
        return None
    by_number: Counter[int] = Counter()
    commits: dict[int, str] = {}
    paths: dict[int, set[str]] = {}
    for origin in origins.origins:
        number, commit = origin.number, origin.commit
        if not rule.past_moves and origin.moved_by is not None:
            number, commit = origin.moved_by_number, origin.moved_by
        if origin.path not in counted or number is None or number == own:
            continue
        by_number[number] += origin.lines
        commits.setdefault(number, commit)
        paths.setdefault(number, set()).add(origin.path)
    if not by_number:
        return None
    # Between PRs that wrote as many lines, the later one: the code it touched last worked.
    number, lines = max(by_number.items(), key=lambda item: (item[1], item[0]))
    if lines < rule.min_lines or lines / total < rule.min_share:
        return None
    # The share is judged on the central files; the count said is of every blamed line, as the
    # sentence "2 of the 3 lines this fix changes" reads (a typo fixed in a second file is a line it changes).
    blamed = max(total, sum(origins.lines_by_path.values()))
    return RootCauseFinding(number, commits[number], lines, blamed, tuple(sorted(paths[number])))
