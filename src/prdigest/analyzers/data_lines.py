"""Whether a PR's code change only edits literal data: entries of a table of names,
patterns or extensions (`("tcl", &["*.tcl"]),`), written as quoted values and punctuation.

Such a line names no variable, calls nothing and decides nothing by itself: the logic that
reads the table is unchanged. Read by each line's look, in every language: a line is data
when, its quoted literals and numbers taken out, only brackets, commas, colons, semicolons
and reference marks are left. A change is data-only when every changed line of code in its
core files is such a line (one line of logic among them and it is not).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from prdigest.analyzers.behaviour import is_comment_line
from prdigest.diff import file_diff
from prdigest.models.pullrequest import FileChange

_QUOTED = re.compile(r"[rRbBuUfF]{0,2}(?:\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`)")
_NUMBER = re.compile(r"\b(?:0[xX][0-9a-fA-F_]+|\d[\d_]*(?:\.\d+)?)\b")
_PUNCTUATION = frozenset("()[]{},;:&")


def is_data_line(text: str) -> bool:
    """One line of code is only quoted values (at least one) and punctuation."""
    stripped = text.strip()
    without, literals = _QUOTED.subn("", stripped)
    if not literals or "${" in stripped:  # a template with a placeholder computes its value
        return False
    rest = _NUMBER.sub("", without)
    return all(char in _PUNCTUATION or char.isspace() for char in rest)


def data_only_lines(changes: Iterable[tuple[FileChange, str | None]]) -> int:
    """How many changed lines of code the data-only change has (each file with its language),
    0 when any of them is not data (blank lines and comments aside)."""
    counted = 0
    for change, language in changes:
        if not change.patch:
            continue
        for line in file_diff(change).changes():
            text = line.text.strip()
            if not text or is_comment_line(text, language):
                continue
            if not is_data_line(text):
                return 0
            counted += 1
    return counted


def adds_data_only(changes: Iterable[tuple[FileChange, str | None]]) -> bool:
    """Whether the change only adds table entries: every changed line of code is data and
    none is removed, so every lookup the table answered before it answers the same."""
    listed = list(changes)
    if not data_only_lines(listed):
        return False
    return not any(
        line.kind == "-" and line.text.strip() and not is_comment_line(line.text.strip(), language)
        for change, language in listed
        if change.patch
        for line in file_diff(change).changes()
    )
