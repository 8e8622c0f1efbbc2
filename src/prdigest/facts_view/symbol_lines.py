"""How many of a PR's changed lines fall inside a changed definition: where a fix or an
improvement actually sits, when a file's changes span several definitions."""

from __future__ import annotations

from prdigest.diff import file_diff
from prdigest.models.facts import SymbolChange
from prdigest.models.pullrequest import PullRequest


def changed_lines_in(symbol: SymbolChange, pr: PullRequest) -> int:
    """Non-blank lines the PR adds or removes inside `symbol`'s span. A removed symbol's span is
    in the old file; otherwise a removed line counts where it stood between the new lines."""
    start, end = symbol.start_line, symbol.end_line
    change = next((c for c in pr.files if c.path == symbol.path), None)
    if change is None or start is None or end is None or not change.patch:
        return 0
    diff = file_diff(change)
    if not diff.numbered:
        return 0
    counted = 0
    for hunk in diff.hunks:
        cursor = hunk.new_start  # the new-file line a removed line stood before
        for line in hunk.lines:
            if line.kind == "-":
                where = line.old_line if symbol.change == "removed" else cursor
            else:
                cursor = (line.new_line or cursor) + 1
                if line.kind == " " or symbol.change == "removed":
                    continue  # context, or an added line of a definition only the old file had
                where = line.new_line
            if where is not None and start <= where <= end and line.text.strip():
                counted += 1
    return counted
