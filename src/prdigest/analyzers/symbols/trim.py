"""Trim a long hunk to a readable excerpt of at most N diff lines.

The excerpt starts at the densest run of changes (the window of N lines holding the most
added/removed lines) and keeps whole change blocks while they fit. A block too long for
what is left shows the start of both its removed and its added side, so a rewrite still
reads as old-versus-new instead of only one of them. The result is a subsequence of the
hunk's lines, in order; ``truncated`` says whether any changed line was left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from prdigest.diff import Line

# Context lines kept before and after the changes.
CONTEXT_LINES = 3


@dataclass(frozen=True)
class Trimmed:
    indices: tuple[int, ...]  # positions in the hunk's lines, ascending
    truncated: bool  # some changed lines are left out


def _densest_start(changed: Sequence[int], max_lines: int) -> int:
    """The changed position that starts the ``max_lines`` window with the most changes (linear)."""
    best_start, best_count, low = changed[0], 0, 0
    for high, position in enumerate(changed):
        while position - changed[low] + 1 > max_lines:
            low += 1
        if high - low + 1 > best_count:
            best_start, best_count = changed[low], high - low + 1
    return best_start


def _runs(lines: Sequence[Line], start: int) -> list[tuple[int, int, bool]]:
    """Maximal runs from ``start`` on: (first, end, is a change block)."""
    runs: list[tuple[int, int, bool]] = []
    i = start
    while i < len(lines):
        is_change = lines[i].kind != " "
        j = i
        while j < len(lines) and (lines[j].kind != " ") == is_change:
            j += 1
        runs.append((i, j, is_change))
        i = j
    return runs


def _split_block(lines: Sequence[Line], first: int, end: int, budget: int) -> list[int]:
    """The start of both sides of a change block that does not fit in ``budget`` lines."""
    removed = [k for k in range(first, end) if lines[k].kind == "-"]
    added = [k for k in range(first, end) if lines[k].kind == "+"]
    take_removed = min(len(removed), max(budget // 2, budget - len(added)))
    take_added = min(len(added), budget - take_removed)
    return sorted(removed[:take_removed] + added[:take_added])


def trim_lines(lines: Sequence[Line], max_lines: int) -> Trimmed:
    """At most ``max_lines`` of a hunk's lines, chosen to show as much change as possible."""
    max_lines = max(max_lines, 1)
    changed = [i for i, line in enumerate(lines) if line.kind != " "]
    if not changed:
        return Trimmed(tuple(range(min(len(lines), max_lines))), False)
    start = max(0, changed[0] - CONTEXT_LINES)
    end = min(len(lines), changed[-1] + 1 + CONTEXT_LINES)
    if end - start <= max_lines:
        return Trimmed(tuple(range(start, end)), False)

    anchor = _densest_start(changed, max_lines)
    picked: list[int] = []
    lead = anchor
    while lead > 0 and anchor - lead < min(CONTEXT_LINES, max_lines // 4) and lines[lead - 1].kind == " ":
        lead -= 1
    picked.extend(range(lead, anchor))
    budget = max_lines - len(picked)
    for first, stop, is_change in _runs(lines, anchor):
        if budget <= 0:
            break
        size = stop - first
        if size <= budget:
            picked.extend(range(first, stop))
            budget -= size
        elif is_change:
            picked.extend(_split_block(lines, first, stop, budget))
            break
        else:
            picked.extend(range(first, first + min(CONTEXT_LINES, budget)))
            break
    # Context after the last picked change beyond CONTEXT_LINES says little: drop it.
    last_change = max(i for i in picked if lines[i].kind != " ")
    picked = [i for i in picked if i <= last_change + CONTEXT_LINES]
    shown_changes = sum(1 for i in picked if lines[i].kind != " ")
    return Trimmed(tuple(picked), shown_changes < len(changed))
