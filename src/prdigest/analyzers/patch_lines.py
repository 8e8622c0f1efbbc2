"""Added and removed lines of a file's patch, with line numbers, parsed with unidiff.

GitHub gives hunks without file headers; a minimal header is prepended so unidiff can
read them. When unidiff rejects a patch (GitHub cuts long patches mid-hunk, so hunk
counts no longer match), the +/- lines are still returned, without line numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from unidiff.errors import UnidiffParseError
from unidiff.patch import PatchSet

from prdigest.models.pullrequest import FileChange


@dataclass(frozen=True)
class PatchLine:
    kind: Literal["+", "-"]
    number: int | None  # target line for "+", source line for "-"
    text: str


def changed_lines(change: FileChange) -> list[PatchLine]:
    """Every added and removed line of one file's patch, in patch order."""
    patch = change.patch
    if not patch:
        return []
    if not patch.startswith(("--- ", "diff ")):
        patch = f"--- a/{change.path}\n+++ b/{change.path}\n{patch}"
    if not patch.endswith("\n"):
        patch += "\n"
    try:
        parsed = PatchSet(patch)
    except (UnidiffParseError, ValueError, IndexError):
        return _unnumbered(patch)
    lines: list[PatchLine] = []
    for patched_file in parsed:
        for hunk in patched_file:
            for line in hunk:
                if line.is_added:
                    lines.append(PatchLine("+", line.target_line_no, line.value.rstrip("\n")))
                elif line.is_removed:
                    lines.append(PatchLine("-", line.source_line_no, line.value.rstrip("\n")))
    return lines


def _unnumbered(patch: str) -> list[PatchLine]:
    lines: list[PatchLine] = []
    in_hunk = False
    for raw in patch.splitlines():
        if raw.startswith("@@"):
            in_hunk = True
        elif in_hunk and raw.startswith("+") and not raw.startswith("+++ "):
            lines.append(PatchLine("+", None, raw[1:]))
        elif in_hunk and raw.startswith("-") and not raw.startswith("--- "):
            lines.append(PatchLine("-", None, raw[1:]))
    return lines
