"""A patch read from its line prefixes alone, for what unidiff rejects or reads short.

Hunk counts that no longer match the lines (a patch cut mid-hunk), lines after a hunk's
counted end, stray text between hunks: every "+", "-" and context line under an "@@"
header is kept, in order, without line numbers (they cannot be trusted).
"""

from __future__ import annotations

import re

from prdigest.diff.model import Hunk, Line

_HUNK_RANGES = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def read_leniently(patch: str) -> tuple[Hunk, ...]:
    hunks: list[Hunk] = []
    header_line = ""
    current: list[Line] = []
    in_hunk = False
    for raw in patch.splitlines():
        if raw.startswith("@@"):
            _flush(hunks, header_line, current)
            header_line, current, in_hunk = raw, [], True
        elif raw.startswith("diff "):
            in_hunk = False  # the next file's header follows
        elif not in_hunk:
            continue  # file headers
        elif raw.startswith("\\"):
            if current:  # "\ No newline at end of file"
                last = current[-1]
                current[-1] = Line(last.kind, last.text, no_newline=True)
        elif raw[:1] == "+":
            current.append(Line("+", raw[1:]))
        elif raw[:1] == "-":
            current.append(Line("-", raw[1:]))
        elif raw[:1] == " ":
            current.append(Line(" ", raw[1:]))
        elif raw == "":
            current.append(Line(" ", ""))
    _flush(hunks, header_line, current)
    return tuple(hunks)


def _flush(hunks: list[Hunk], header_line: str, lines: list[Line]) -> None:
    section_header = header_line[2:].partition("@@")[2].strip()
    if not (lines or section_header):
        return  # no hunk yet, or an empty one with nothing to say
    ranges = _HUNK_RANGES.match(header_line)
    old_start, old_length, new_start, new_length = (
        (int(ranges[1]), int(ranges[2] or 1), int(ranges[3]), int(ranges[4] or 1)) if ranges else (0, 0, 0, 0)
    )
    hunks.append(Hunk(old_start, old_length, new_start, new_length, section_header, tuple(lines)))
