"""One file's patch, parsed once with unidiff into light, immutable hunks.

Sources give either a GitHub-style patch (hunks only) or a git diff with file headers;
both are accepted. A patch unidiff cannot read yields no hunks rather than an error:
the analyzers that use it then report nothing for that file.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from unidiff.errors import UnidiffParseError

from prdigest.analyzers.patch_lines import UnifiedHunk, parse_unified

# The name in the synthetic file headers that let unidiff accept a hunks-only patch.
_HEADER_PATH = "file"


@dataclass(frozen=True)
class DiffLine:
    origin: str  # "+", "-" or " "
    old_line: int | None
    new_line: int | None
    text: str  # without the origin character and without the newline


@dataclass(frozen=True)
class Hunk:
    old_start: int
    new_start: int
    section_header: str  # git's function context after the second @@, possibly ""
    lines: tuple[DiffLine, ...]

    @property
    def added(self) -> int:
        return sum(1 for line in self.lines if line.origin == "+")

    @property
    def removed(self) -> int:
        return sum(1 for line in self.lines if line.origin == "-")


def parse_patch(patch: str | None) -> list[Hunk]:
    """The hunks of a one-file patch; [] when there is none or it cannot be parsed."""
    if not patch or "@@" not in patch:
        return []
    return list(_parse_hunks(patch))


@lru_cache(maxsize=64)  # the symbols analyzer and its excerpts read the same patches
def _parse_hunks(patch: str) -> tuple[Hunk, ...]:
    text = patch if patch.endswith("\n") else patch + "\n"
    try:
        patch_set = parse_unified(text, _HEADER_PATH) if text.startswith("@@") else parse_unified(text)
    except (UnidiffParseError, ValueError, IndexError, TypeError):
        return ()
    if len(patch_set) == 0:
        return ()
    return tuple(_convert(hunk) for hunk in patch_set[0])


def _convert(hunk: UnifiedHunk) -> Hunk:
    lines = tuple(
        DiffLine(line.line_type, line.source_line_no, line.target_line_no, line.value.rstrip("\r\n"))
        for line in hunk.lines
        if line.line_type in ("+", "-", " ")
    )
    return Hunk(hunk.source_start, hunk.target_start, hunk.section_header or "", lines)


@dataclass(frozen=True)
class ChangedLines:
    added: tuple[int, ...]  # sorted line numbers in the new file
    removed: tuple[int, ...]  # sorted line numbers in the old file

    def __bool__(self) -> bool:
        return bool(self.added or self.removed)


def changed_lines(hunks: list[Hunk]) -> ChangedLines:
    """Line numbers of added and removed lines; blank ones are left out (they change no symbol)."""
    added: set[int] = set()
    removed: set[int] = set()
    for hunk in hunks:
        for line in hunk.lines:
            if not line.text.strip():
                continue
            if line.origin == "+" and line.new_line is not None:
                added.add(line.new_line)
            elif line.origin == "-" and line.old_line is not None:
                removed.add(line.old_line)
    return ChangedLines(tuple(sorted(added)), tuple(sorted(removed)))
