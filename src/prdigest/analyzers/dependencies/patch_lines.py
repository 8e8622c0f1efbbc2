"""Lines of one file's patch, split into the old side and the new side.

GitHub patches are bare hunks (no ``---``/``+++`` header), git patches carry one; both are
parsed with unidiff. A patch unidiff rejects or reads short (wrong hunk counts after
truncation, stray text) falls back to reading the ``+``/``-``/space prefixes, so analysis never fails on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from unidiff.errors import UnidiffParseError

from prdigest.analyzers.patch_lines import parse_unified


@dataclass(frozen=True)
class PatchLine:
    kind: str  # "+", "-" or " "
    text: str
    old_line: int | None = None
    new_line: int | None = None


@dataclass(frozen=True)
class Hunk:
    header: str  # the text after the second "@@", often the enclosing function or YAML key
    lines: tuple[PatchLine, ...] = ()


@dataclass(frozen=True)
class PatchView:
    hunks: tuple[Hunk, ...] = field(default_factory=tuple)

    def added(self) -> list[str]:
        return [line.text for hunk in self.hunks for line in hunk.lines if line.kind == "+"]

    def removed(self) -> list[str]:
        return [line.text for hunk in self.hunks for line in hunk.lines if line.kind == "-"]

    def old_side(self) -> list[str]:
        """Context and removed lines: what the patch shows of the old file."""
        return [line.text for hunk in self.hunks for line in hunk.lines if line.kind in " -"]

    def new_side(self) -> list[str]:
        """Context and added lines: what the patch shows of the new file."""
        return [line.text for hunk in self.hunks for line in hunk.lines if line.kind in " +"]


def parse_patch(patch: str | None, path: str = "file") -> PatchView:
    """Parse one file's patch; never raises."""
    if not patch:
        return PatchView()
    return _parse_patch(patch, path)


@lru_cache(maxsize=64)  # files, tests_ci and dependencies read the same patches
def _parse_patch(patch: str, path: str) -> PatchView:
    text = patch if patch.endswith("\n") else patch + "\n"
    try:
        patch_set = parse_unified(text) if text.startswith(("---", "diff ")) else parse_unified(text, path)
    except (UnidiffParseError, ValueError, IndexError, TypeError):
        return _scan_prefixes(patch)
    hunks: list[Hunk] = []
    for file_hunks in patch_set:
        for hunk in file_hunks:
            lines = tuple(
                PatchLine(
                    kind=line.line_type if line.line_type in "+- " else " ",
                    text=line.value.rstrip("\r\n"),
                    old_line=line.source_line_no,
                    new_line=line.target_line_no,
                )
                for line in hunk.lines
                if line.line_type in ("+", "-", " ")
            )
            hunks.append(Hunk(header=(hunk.section_header or "").strip(), lines=lines))
    parsed = PatchView(hunks=tuple(hunks))
    scanned = _scan_prefixes(patch)
    # unidiff stops a hunk once its header counts are met; a patch with wrong counts would
    # silently lose lines, so the prefix scan wins whenever the two disagree.
    if not hunks or (len(parsed.added()), len(parsed.removed())) != (
        len(scanned.added()),
        len(scanned.removed()),
    ):
        return scanned
    return parsed


def _scan_prefixes(patch: str) -> PatchView:
    hunks: list[Hunk] = []
    header = ""
    current: list[PatchLine] = []
    in_hunk = False
    for raw in patch.splitlines():
        if raw.startswith("@@"):
            if current or header:
                hunks.append(Hunk(header=header, lines=tuple(current)))
            _, _, rest = raw[2:].partition("@@")
            header, current, in_hunk = rest.strip(), [], True
        elif raw.startswith("diff "):
            in_hunk = False  # the next file's header follows
        elif not in_hunk or raw.startswith("\\"):
            continue  # file headers, "\ No newline at end of file"
        elif raw[:1] in ("+", "-", " "):
            current.append(PatchLine(kind=raw[0], text=raw[1:]))
        elif raw == "":
            current.append(PatchLine(kind=" ", text=""))
    if current or header:
        hunks.append(Hunk(header=header, lines=tuple(current)))
    return PatchView(hunks=tuple(hunks))
