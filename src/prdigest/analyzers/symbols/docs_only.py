"""Which modified Python functions and classes changed only in their docstrings, comments or
blank lines: their callers meet no change of behaviour, and a report must not say they do."""

from __future__ import annotations

from collections.abc import Sequence

from prdigest.analyzers.symbols.excerpts import new_file_anchors
from prdigest.analyzers.symbols.quiet_lines import QuietLines
from prdigest.diff import Hunk
from prdigest.models.facts import SymbolChange
from prdigest.models.pullrequest import FileChange


def mark_docs_only(change: FileChange, hunks: Sequence[Hunk], symbols: list[SymbolChange]) -> list[SymbolChange]:
    """`symbols` of one file, a modified one marked ``docs_only`` when every line the change
    touches inside it is a docstring, comment or blank line on its side (both sides of a
    Python file read as syntax; otherwise nothing is marked)."""
    modified = [s for s in symbols if s.change == "modified" and s.start_line is not None and s.end_line is not None]
    quiet = QuietLines(change)
    if not modified or quiet.before is None or quiet.after is None:
        return symbols
    spans = [(s.name, s.start_line or 0, s.end_line or 0) for s in modified]
    touched: dict[str, list[bool]] = {}
    for hunk in hunks:
        for line, at in zip(hunk.lines, new_file_anchors(hunk), strict=True):
            if line.kind == " ":
                continue
            is_quiet = quiet.is_quiet(line)
            for name, start, end in spans:
                if start <= at <= end:
                    touched.setdefault(name, []).append(is_quiet)
    quiet_names = {name for name, lines in touched.items() if lines and all(lines)}
    return [
        s.model_copy(update={"docs_only": True}) if s.change == "modified" and s.name in quiet_names else s
        for s in symbols
    ]
