"""Parse the new file incrementally from the old file's tree.

tree-sitter can reuse an old tree once told where the text changed; the hunks say exactly
that, at line granularity. The new parse then costs about the size of the changes instead
of the size of the file. Edits are only used after checking that every hunk line matches
the contents it claims to describe; otherwise a stale tree could mislead, so the caller
parses from scratch instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate

import tree_sitter

from prdigest.diff import Hunk


def _line_starts(data: bytes) -> list[int]:
    """Byte offset where each line starts, plus the end of the data as a sentinel."""
    # Built from C-level calls only (split, len, add): this runs on every parsed file.
    starts = list(accumulate(map((1).__add__, map(len, data.split(b"\n"))), initial=0))[:-1]
    if starts[-1] != len(data):
        starts.append(len(data))
    return starts


def hunks_match(hunks: Sequence[Hunk], before: str, after: str) -> bool:
    """Whether every context/removed line is in ``before`` and every context/added line in ``after``."""
    old_lines = before.split("\n")
    new_lines = after.split("\n")
    for hunk in hunks:
        for line in hunk.lines:
            if line.kind != "+":
                if line.old_line is None or not 0 < line.old_line <= len(old_lines):
                    return False
                if old_lines[line.old_line - 1].rstrip("\r") != line.text:
                    return False
            if line.kind != "-":
                if line.new_line is None or not 0 < line.new_line <= len(new_lines):
                    return False
                if new_lines[line.new_line - 1].rstrip("\r") != line.text:
                    return False
    return True


def _blocks(hunks: Sequence[Hunk]) -> list[tuple[int, int, int, int]]:
    """Change blocks as (old first line, old end line, new first line, new end line), end exclusive."""
    blocks: list[tuple[int, int, int, int]] = []
    for hunk in hunks:
        old_count = sum(1 for line in hunk.lines if line.kind != "+")
        new_count = sum(1 for line in hunk.lines if line.kind != "-")
        # A zero-length side names the line *before* the hunk (``@@ -0,0 +1,3 @@``).
        old_next = hunk.old_start if old_count else hunk.old_start + 1
        new_next = hunk.new_start if new_count else hunk.new_start + 1
        block: tuple[int, int] | None = None
        for line in hunk.lines:
            if line.kind == " ":
                if block is not None:
                    blocks.append((block[0], old_next, block[1], new_next))
                    block = None
                old_next += 1
                new_next += 1
                continue
            if block is None:
                block = (old_next, new_next)
            if line.kind == "-":
                old_next += 1
            else:
                new_next += 1
        if block is not None:
            blocks.append((block[0], old_next, block[1], new_next))
    return blocks


def apply_edits(tree: tree_sitter.Tree, hunks: Sequence[Hunk], before: bytes, after: bytes) -> bool:
    """Tell ``tree`` (of ``before``) where ``after`` differs; False if the hunks do not fit."""
    old_starts = _line_starts(before)
    new_starts = _line_starts(after)
    edits = []
    for old_first, old_end, new_first, new_end in _blocks(hunks):
        if not (0 < old_first <= old_end <= len(old_starts) and 0 < new_first <= new_end <= len(new_starts)):
            return False
        start = old_starts[old_first - 1]
        old_stop = old_starts[old_end - 1]
        new_length = new_starts[new_end - 1] - new_starts[new_first - 1]
        edits.append((start, old_stop, start + new_length, old_first - 1, old_end - 1, new_end - new_first))
    # Last edit first: earlier offsets stay valid while later text changes.
    for start, old_stop, new_stop, row, old_row, added_rows in reversed(edits):
        tree.edit(
            start_byte=start,
            old_end_byte=old_stop,
            new_end_byte=new_stop,
            start_point=(row, 0),
            old_end_point=(old_row, 0),
            new_end_point=(row + added_rows, 0),
        )
    return True
