"""The line numbers a file's hunks change, which the symbols around them are looked up by."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from prdigest.diff import Hunk


@dataclass(frozen=True)
class ChangedLines:
    added: tuple[int, ...]  # sorted line numbers in the new file
    removed: tuple[int, ...]  # sorted line numbers in the old file

    def __bool__(self) -> bool:
        return bool(self.added or self.removed)


def changed_lines(hunks: Sequence[Hunk]) -> ChangedLines:
    """Line numbers of added and removed lines; blank ones are left out (they change no symbol)."""
    added: set[int] = set()
    removed: set[int] = set()
    for hunk in hunks:
        for line in hunk.lines:
            if not line.text.strip():
                continue
            if line.kind == "+" and line.new_line is not None:
                added.add(line.new_line)
            elif line.kind == "-" and line.old_line is not None:
                removed.add(line.old_line)
    return ChangedLines(tuple(sorted(added)), tuple(sorted(removed)))
