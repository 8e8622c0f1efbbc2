"""One file's unified diff as immutable hunks and lines, shared by analyzers and narrators."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

LineKind = Literal["+", "-", " "]

# What git writes after a line the file does not end with a newline after.
NO_NEWLINE_MARKER = "\\ No newline at end of file"


@dataclass(frozen=True, slots=True)
class Line:
    """One added ("+"), removed ("-") or context (" ") line of a hunk."""

    kind: LineKind
    text: str  # without the kind character and without the line ending
    old_line: int | None = None  # in the old file; None for "+" and in a leniently read patch
    new_line: int | None = None  # in the new file; None for "-" and in a leniently read patch
    no_newline: bool = False  # followed by "\ No newline at end of file"

    @property
    def number(self) -> int | None:
        """Where the line is: in the new file for "+" and context, in the old file for "-"."""
        return self.old_line if self.kind == "-" else self.new_line


@dataclass(frozen=True, slots=True)
class Hunk:
    old_start: int
    old_length: int
    new_start: int
    new_length: int
    section_header: str  # the text after the second "@@" (often the enclosing function), possibly ""
    lines: tuple[Line, ...]

    @property
    def added(self) -> int:
        return sum(1 for line in self.lines if line.kind == "+")

    @property
    def removed(self) -> int:
        return sum(1 for line in self.lines if line.kind == "-")


@dataclass(frozen=True, slots=True)
class FileDiff:
    """The hunks of one file's patch.

    ``numbered`` is True when unidiff read the whole patch: every line then carries its
    line numbers. A patch it rejects or reads short (GitHub and some tools cut long
    patches mid-hunk, so the hunk counts no longer match) is read leniently from the
    line prefixes instead: the same +/-/context lines, without line numbers.
    """

    hunks: tuple[Hunk, ...] = ()
    numbered: bool = False

    @property
    def numbered_hunks(self) -> tuple[Hunk, ...]:
        """The hunks when their lines carry line numbers, else none: for readers that
        place lines in the file (symbols, excerpts) and must not guess."""
        return self.hunks if self.numbered else ()

    def lines(self) -> Iterator[Line]:
        for hunk in self.hunks:
            yield from hunk.lines

    def changes(self) -> list[Line]:
        """Every added and removed line, in patch order."""
        return [line for line in self.lines() if line.kind != " "]

    def added(self) -> list[str]:
        return [line.text for line in self.lines() if line.kind == "+"]

    def removed(self) -> list[str]:
        return [line.text for line in self.lines() if line.kind == "-"]

    def old_side(self) -> list[str]:
        """Context and removed lines: what the patch shows of the old file."""
        return [line.text for line in self.lines() if line.kind != "+"]

    def new_side(self) -> list[str]:
        """Context and added lines: what the patch shows of the new file."""
        return [line.text for line in self.lines() if line.kind != "-"]
