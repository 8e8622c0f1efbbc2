"""Added and removed lines of a file's patch, with line numbers, parsed with unidiff.

GitHub gives hunks without file headers; a minimal header is prepended so unidiff can
read them. When unidiff rejects a patch (GitHub cuts long patches mid-hunk, so hunk
counts no longer match), the +/- lines are still returned, without line numbers.

Several analyzers read the same patch; `parse_unified` parses each patch text once and
keeps the last few results, so a PR's patches are parsed by unidiff once, not per analyzer.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from unidiff.errors import UnidiffParseError
from unidiff.patch import PatchSet

from prdigest.models.pullrequest import FileChange


@dataclass(frozen=True)
class UnifiedLine:
    """One line of a unidiff hunk, as unidiff read it."""

    line_type: str  # "+", "-", " " or "\\" (no newline at end of file)
    value: str  # with its line ending
    source_line_no: int | None
    target_line_no: int | None


@dataclass(frozen=True)
class UnifiedHunk:
    source_start: int
    target_start: int
    section_header: str | None
    lines: tuple[UnifiedLine, ...]


UnifiedPatch = tuple[tuple[UnifiedHunk, ...], ...]  # the hunks of each file in the patch

_RECENT = 64  # a PR's patches are read by all analyzers before the next PR's
_parsed: OrderedDict[tuple[str, str | None], UnifiedPatch] = OrderedDict()


def _header_name(path: str) -> str:
    # unidiff reads the file name only to name the file; any name on one line parses the
    # hunks alike, so one cache entry serves callers that name the file differently.
    return "file" if not any(c in path for c in "\n\r\t") else path


def parse_unified(body: str, header_path: str | None = None) -> UnifiedPatch:
    """unidiff's reading of ``body``, with ``--- a/P`` / ``+++ b/P`` headers put in front
    when ``header_path`` is given; raises whatever unidiff raises on a bad patch."""
    name = None if header_path is None else _header_name(header_path)
    key = (body, name)
    found = _parsed.get(key)
    if found is not None:
        _parsed.move_to_end(key)
        return found
    text = body if name is None else f"--- a/{name}\n+++ b/{name}\n{body}"
    result = tuple(
        tuple(
            UnifiedHunk(
                hunk.source_start,
                hunk.target_start,
                hunk.section_header,
                tuple(UnifiedLine(ln.line_type, ln.value, ln.source_line_no, ln.target_line_no) for ln in hunk),
            )
            for hunk in patched_file
        )
        for patched_file in PatchSet(text)
    )
    _parsed[key] = result
    if len(_parsed) > _RECENT:
        _parsed.popitem(last=False)
    return result


@dataclass(frozen=True)
class PatchLine:
    kind: Literal["+", "-"]
    number: int | None  # target line for "+", source line for "-"
    text: str


def changed_lines(change: FileChange) -> list[PatchLine]:
    """Every added and removed line of one file's patch, in patch order."""
    if not change.patch:
        return []
    return list(_changed_lines(change.patch, change.path))


@lru_cache(maxsize=_RECENT)
def _changed_lines(patch: str, path: str) -> tuple[PatchLine, ...]:
    header_path = None if patch.startswith(("--- ", "diff ")) else path
    body = patch if patch.endswith("\n") else patch + "\n"
    try:
        parsed = parse_unified(body, header_path)
    except (UnidiffParseError, ValueError, IndexError):
        text = body if header_path is None else f"--- a/{path}\n+++ b/{path}\n{body}"
        return tuple(_unnumbered(text))
    lines: list[PatchLine] = []
    for hunks in parsed:
        for hunk in hunks:
            for line in hunk.lines:
                if line.line_type == "+":
                    lines.append(PatchLine("+", line.target_line_no, line.value.rstrip("\n")))
                elif line.line_type == "-":
                    lines.append(PatchLine("-", line.source_line_no, line.value.rstrip("\n")))
    return tuple(lines)


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
