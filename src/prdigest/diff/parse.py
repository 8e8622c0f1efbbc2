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

import re
from functools import lru_cache

from unidiff.errors import UnidiffParseError
from unidiff.patch import PatchSet

from prdigest.diff.lenient import read_leniently
from prdigest.diff.model import NO_NEWLINE_MARKER, FileDiff, Hunk, Line, LineKind
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
    fast = _read_well_formed(patch)
    if fast is not None:
        return FileDiff(fast, numbered=True)
    return _parse_with_unidiff(patch)


def _parse_with_unidiff(patch: str) -> FileDiff:
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


# Characters other than "\n" that str.splitlines breaks lines at: where unidiff (which splits
# at "\n" only) and the lenient reader could disagree, so the fast reader leaves those to them.
_OTHER_LINE_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_HUNK_HEADER = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@[ ]?(.*)\Z", re.DOTALL)


def _read_well_formed(patch: str) -> tuple[Hunk, ...] | None:
    """The hunks of a bare-hunks patch whose every hunk holds exactly the lines its header
    counts, read in one pass; None for anything else (headers, short or long hunks, blank or
    unknown lines, other line breaks), which the unidiff and lenient readings then decide.

    On such a patch unidiff and the lenient reading agree, and this gives what unidiff gives
    (a test compares the two on every patch of real histories); it is several times faster.
    """
    if not patch.startswith("@@") or _OTHER_LINE_BREAKS.search(patch):
        return None
    lines = patch.split("\n")
    if lines[-1] == "":
        lines.pop()
    hunks: list[Hunk] = []
    index, count = 0, len(lines)
    while index < count:
        header = _HUNK_HEADER.match(lines[index])
        if header is None:
            return None
        old_start, new_start = int(header[1]), int(header[3])
        old_length = 1 if header[2] is None else int(header[2])
        new_length = 1 if header[4] is None else int(header[4])
        old_left, new_left = old_length, new_length
        old_no, new_no = old_start, new_start
        body: list[Line] = []
        index += 1
        while index < count and (old_left > 0 or new_left > 0):
            raw = lines[index]
            kind = raw[:1]
            if kind == " ":
                body.append(Line(" ", raw[1:], old_no, new_no))
                old_no, new_no, old_left, new_left = old_no + 1, new_no + 1, old_left - 1, new_left - 1
            elif kind == "-":
                body.append(Line("-", raw[1:], old_no, None))
                old_no, old_left = old_no + 1, old_left - 1
            elif kind == "+":
                body.append(Line("+", raw[1:], None, new_no))
                new_no, new_left = new_no + 1, new_left - 1
            elif raw == NO_NEWLINE_MARKER and body:
                last = body[-1]
                body[-1] = Line(last.kind, last.text, last.old_line, last.new_line, no_newline=True)
            else:
                return None
            index += 1
        if old_left != 0 or new_left != 0 or not body:
            return None
        if index < count and lines[index] == NO_NEWLINE_MARKER:
            last = body[-1]
            body[-1] = Line(last.kind, last.text, last.old_line, last.new_line, no_newline=True)
            index += 1
        hunks.append(Hunk(old_start, old_length, new_start, new_length, header[5], tuple(body)))
    return tuple(hunks) if hunks else None


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
