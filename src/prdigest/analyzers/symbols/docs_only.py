"""Which modified Python functions and classes changed only in their docstrings, comments or
blank lines: their callers meet no change of behaviour, and a report must not say they do."""

from __future__ import annotations

from collections.abc import Sequence

from prdigest.analyzers.symbols.excerpts import new_file_anchors
from prdigest.analyzers.symbols.py_pieces import PYTHON
from prdigest.diff import Hunk
from prdigest.models.facts import SymbolChange
from prdigest.models.pullrequest import FileChange


def mark_docs_only(change: FileChange, hunks: Sequence[Hunk], symbols: list[SymbolChange]) -> list[SymbolChange]:
    """`symbols` of one file, a modified one marked ``docs_only`` when every line the change
    touches inside it is a docstring, comment or blank line on its side (both sides of a
    Python file read as syntax; otherwise nothing is marked)."""
    modified = [s for s in symbols if s.change == "modified" and s.start_line is not None and s.end_line is not None]
    if not modified or not change.path.endswith((".py", ".pyi")):
        return symbols
    if change.content_before is None or change.content_after is None:
        return symbols
    quiet_before, quiet_after = PYTHON.quiet_lines(change.content_before), PYTHON.quiet_lines(change.content_after)
    if quiet_before is None or quiet_after is None:
        return symbols
    spans = [(s.name, s.start_line or 0, s.end_line or 0) for s in modified]
    touched: dict[str, list[bool]] = {}
    for hunk in hunks:
        for line, at in zip(hunk.lines, new_file_anchors(hunk), strict=True):
            if line.kind == " ":
                continue
            number, quiet = (line.new_line, quiet_after) if line.kind == "+" else (line.old_line, quiet_before)
            is_quiet = not line.text.strip() or (number is not None and number in quiet)
            for name, start, end in spans:
                if start <= at <= end:
                    touched.setdefault(name, []).append(is_quiet)
    quiet_names = {name for name, lines in touched.items() if lines and all(lines)}
    return [
        s.model_copy(update={"docs_only": True}) if s.change == "modified" and s.name in quiet_names else s
        for s in symbols
    ]
