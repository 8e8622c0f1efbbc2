"""Each patch parsed once, with unidiff, into a `FileDiff`.

Sources give either a bare-hunks patch (GitHub's per-file ``patch`` field, and what the
git source stores) or a patch with ``---``/``+++`` (or ``diff --git``) file headers;
unidiff needs the headers, so a minimal one is put in front of bare hunks. Text is
already decoded (sources replace bytes that are not UTF-8 with U+FFFD). A binary file's
"Binary files ... differ" has no hunks. Parsing never raises: see `FileDiff.numbered`.

Every analyzer of a PR, and the LLM narrator, reads the same patches; the parse of the
most recent patches is kept, keyed by the patch text, so each is parsed once.
"""

from __future__ import annotations

from functools import lru_cache

from unidiff.errors import UnidiffParseError
from unidiff.patch import PatchSet

from prdigest.diff.lenient import read_leniently
from prdigest.diff.model import FileDiff, Hunk, Line, LineKind
from prdigest.models.pullrequest import FileChange

# unidiff takes the name only to name the file; any name reads the hunks alike.
_BARE_HUNKS_HEADER = "--- a/file\n+++ b/file\n"
# Enough for every text file of a large PR: all analyzers of one PR run before the next PR's.
_RECENT = 512
_EMPTY = FileDiff()
_KINDS: dict[str, LineKind] = {"+": "+", "-": "-", " ": " "}


def parse_patch(patch: str | None) -> FileDiff:
    """The hunks of one file's patch; empty for no patch."""
    if not patch:
        return _EMPTY
    return _parse(patch)


def file_diff(change: FileChange) -> FileDiff:
    """`parse_patch` of a changed file's patch."""
    return parse_patch(change.patch)


@lru_cache(maxsize=_RECENT)
def _parse(patch: str) -> FileDiff:
    text = patch if patch.endswith("\n") else patch + "\n"
    if not text.startswith(("--- ", "diff ")):
        text = _BARE_HUNKS_HEADER + text
    try:
        hunks = _read_unidiff(PatchSet(text))
    except (UnidiffParseError, ValueError, IndexError, TypeError):
        return FileDiff(read_leniently(patch), numbered=False)
    lenient = read_leniently(patch)
    # unidiff ends a hunk once its header's counts are met and files any +/- lines after
    # it as header text: a patch with wrong counts would silently lose lines, so the
    # lenient reading wins whenever the two disagree.
    if not hunks or _counts(hunks) != _counts(lenient):
        return FileDiff(lenient, numbered=False)
    return FileDiff(hunks, numbered=True)


def _read_unidiff(patch_set: PatchSet) -> tuple[Hunk, ...]:
    hunks: list[Hunk] = []
    for patched_file in patch_set:
        for hunk in patched_file:
            lines: list[Line] = []
            for line in hunk:
                kind = _KINDS.get(line.line_type)
                if kind is not None:
                    text = line.value.rstrip("\r\n")
                    lines.append(Line(kind, text, line.source_line_no, line.target_line_no))
                elif line.line_type == "\\" and lines:
                    last = lines[-1]
                    lines[-1] = Line(last.kind, last.text, last.old_line, last.new_line, no_newline=True)
                # A blank line after the hunk's counted lines (unidiff keeps it, typed "") is
                # not part of the hunk.
            hunks.append(
                Hunk(
                    hunk.source_start,
                    hunk.source_length,
                    hunk.target_start,
                    hunk.target_length,
                    hunk.section_header,
                    tuple(lines),
                )
            )
    return tuple(hunks)


def _counts(hunks: tuple[Hunk, ...]) -> tuple[int, int]:
    return sum(hunk.added for hunk in hunks), sum(hunk.removed for hunk in hunks)
