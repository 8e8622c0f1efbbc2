"""Whether a PR changes what the code does, as opposed to how it reads.

A regression test is only owed by a change in behaviour: not by a revert (it restores code
that was already tested), a version bump, a typo fix, or edits to comments, docstrings and
whitespace. Python files whose both sides parse are compared as syntax trees without
docstrings and version constants; other files line by line, comments and blank lines aside.
`changed_lines` counts a file's changed lines that are code by the same reading, for the
verdict: the two answers agree (no code line in a file whose behaviour did not change).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from prdigest.analyzers.symbols.py_pieces import PYTHON
from prdigest.analyzers.title_rules import is_revert as is_revert  # re-exported: the text rules live apart
from prdigest.analyzers.title_rules import is_typo_fix as is_typo_fix  # for the narrator (no syntax)
from prdigest.diff import file_diff
from prdigest.models.pullrequest import FileChange, FileStatus

# Comment lines of the common languages; `#include` / `#define` (C preprocessor) are code.
_COMMENT = re.compile(
    r"^\s*(?:#(?!\s*(?:include|define|undef|if|ifdef|ifndef|elif|else|endif|pragma|import)\b)|//|/\*|\*(?:\s|/|$)|--\s|<!--)"
)
# A whole one-line import statement (not the opening of a parenthesised one).
_IMPORT_LINE = re.compile(
    r"^\s*(?:import\s+[\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*"
    r"|from\s+[\w.]+\s+import\s+(?![(\\])[^()\\]+)\s*$"
)
_VERSION_LINE = re.compile(
    r"""^\s*(?:__version__|VERSION|version|__VERSION__|_version)\s*[:=]\s*(?:\w+\s*=\s*)?["'][^"']*["']\s*,?\s*$"""
)


@dataclass(frozen=True)
class _PythonText:
    """One side of a Python file read as syntax: the shape of its tree (docstrings and version
    constants out, from the piece cache the code-edits analyzer shares) and its text, whose
    quiet lines are read only when a caller counts lines."""

    shape: bytes
    text: str

    @cached_property
    def quiet(self) -> frozenset[int]:
        """Line numbers of docstrings, comment-only and blank lines."""
        return PYTHON.quiet_lines(self.text) or frozenset()


def _python_text(text: str) -> _PythonText | None:
    shape = PYTHON.shape(text)
    return None if shape is None else _PythonText(shape, text)


def _python_sides(change: FileChange) -> tuple[_PythonText | None, _PythonText | None] | None:
    """Both sides of a Python file read as syntax, when each side that exists parses; else None."""
    if not change.path.endswith((".py", ".pyi")):
        return None
    before_text = change.content_before
    after_text = change.content_after
    if before_text is None and after_text is None:
        return None
    before = _python_text(before_text) if before_text is not None else None
    after = _python_text(after_text) if after_text is not None else None
    if (before_text is not None and before is None) or (after_text is not None and after is None):
        return None
    if (before is None and change.status is not FileStatus.ADDED) or (
        after is None and change.status is not FileStatus.REMOVED
    ):
        return None  # a side that exists was not read: the trees say nothing
    return before, after


def imports_reordered(change: FileChange) -> bool:
    """The change only moves one-line import statements around: the same imports, another
    order (what import sorters do). Lines of a parenthesised import are not read this way (a
    name list could as well be a tuple whose order matters)."""
    lines = [line for line in file_diff(change).changes() if line.text.strip() and not _COMMENT.match(line.text)]
    if not lines or not all(_IMPORT_LINE.match(line.text) for line in lines):
        return False
    # indentation kept: an import moved into a function (a lazy import) is no reordering
    removed = sorted(_indented(line.text) for line in lines if line.kind == "-")
    added = sorted(_indented(line.text) for line in lines if line.kind == "+")
    return bool(removed) and removed == added


def _indented(text: str) -> tuple[int, str, tuple[str, ...]]:
    """An import line by its indentation, its module and its names in sorted order (a sorter
    also sorts the names one line imports)."""
    line = " ".join(text.split())
    if line.startswith("import "):
        head, names = "import", line.removeprefix("import ")
    else:
        head, _, names = line.partition(" import ")
    return len(text) - len(text.lstrip()), head, tuple(sorted(n.strip() for n in names.split(",")))


def file_changes_behaviour(change: FileChange) -> bool:
    """Whether one source file's change can alter what it does."""
    sides = _python_sides(change)
    if sides is not None and sides[0] is not None and sides[1] is not None:
        return sides[0].shape != sides[1].shape and not imports_reordered(change)
    if not change.patch:
        return True  # nothing shows what changed: it may be anything
    lines = file_diff(change).changes()
    if not lines:
        return change.binary or change.status in ("added", "removed")
    meaningful = [
        line
        for line in lines
        if line.text.strip() and not _COMMENT.match(line.text) and not _VERSION_LINE.match(line.text)
    ]
    removed = sorted("".join(line.text.split()) for line in meaningful if line.kind == "-")
    added = sorted("".join(line.text.split()) for line in meaningful if line.kind == "+")
    return removed != added


# Comment syntax per language, for files not read as syntax trees.
_HASH_COMMENT = {"python", "shell", "bash", "ruby", "perl", "yaml", "toml", "cmake", "make", "r"}
_SLASH_COMMENT = {"c", "cpp", "cuda", "go", "rust", "javascript", "typescript", "java", "kotlin", "swift", "scala"}
_DASH_COMMENT = {"sql", "lua", "haskell"}
_TRIPLE_QUOTES = ('"""', "'''")


@dataclass(frozen=True)
class ChangedLines:
    """One file's changed lines by what they are."""

    code: int = 0  # lines that can change what the code does
    quiet: int = 0  # comments, docstrings, blank lines
    version: int = 0  # a version constant, in a file whose behaviour did not change
    layout: int = 0  # code reformatted without a change to its syntax tree


def changed_lines(change: FileChange, language: str | None) -> ChangedLines:
    """One file's changed lines: code, comments/docstrings/blanks, and, where the syntax trees
    agree (`file_changes_behaviour` says no), version constants and reformatted code, never
    code. A Python file read as syntax on each side places each line in its side's text;
    other files, and patches without line numbers, are read by the lines' own look."""
    sides = _python_sides(change)
    if sides is None:
        looked = _look_of_lines(change, language)
        written = [line for line in file_diff(change).changes() if line.text.strip()]
        if looked.code and all(_VERSION_LINE.match(line.text) for line in written):
            # nothing but version constants, whatever the file's syntax: no line of behaviour
            return ChangedLines(quiet=looked.quiet, version=looked.code)
        return looked
    before, after = sides
    diff = file_diff(change)
    same = before is not None and after is not None and (before.shape == after.shape or imports_reordered(change))
    if not diff.numbered:
        looked = _look_of_lines(change, language)
        if not same:
            return looked
        versions = sum(1 for line in diff.changes() if _VERSION_LINE.match(line.text))
        return ChangedLines(quiet=looked.quiet, version=versions, layout=max(0, looked.code - versions))
    code = quiet = version = layout = 0
    for line in diff.changes():
        side = before if line.kind == "-" else after
        if not line.text.strip() or (side is not None and line.number is not None and line.number in side.quiet):
            quiet += 1
        elif not same:
            code += 1
        elif _VERSION_LINE.match(line.text):
            version += 1
        else:
            layout += 1
    return ChangedLines(code=code, quiet=quiet, version=version, layout=layout)


def _look_of_lines(change: FileChange, language: str | None) -> ChangedLines:
    """Docstrings are followed only through runs of changed lines (a hunk shows part of a
    file, so a quote in the context could open or close one): good enough to tell an edited
    docstring from edited code."""
    code = quiet = 0
    for hunk in file_diff(change).hunks:
        in_doc = False
        for line in hunk.lines:
            if line.kind == " ":
                in_doc = False
                continue
            text = line.text.strip()
            quotes = sum(text.count(q) for q in _TRIPLE_QUOTES) if language == "python" else 0
            inside = in_doc
            if quotes % 2 == 1:
                in_doc = not in_doc
            if not text or inside or quotes or is_comment_line(text, language):
                quiet += 1
            else:
                code += 1
    return ChangedLines(code=code, quiet=quiet)


def is_comment_line(text: str, language: str | None) -> bool:
    if language in _HASH_COMMENT:
        return text.startswith("#") and not text.startswith("#!")
    if language in _SLASH_COMMENT:
        # a block comment's inner line is "* text" or "*"; "*dest = x" dereferences a pointer
        return text.startswith(("//", "/*")) or re.match(r"\*(?:\s|/|$)", text) is not None
    if language in _DASH_COMMENT:
        return text.startswith("--")
    return bool(re.match(r"(#|//|/\*|\*)", text))
