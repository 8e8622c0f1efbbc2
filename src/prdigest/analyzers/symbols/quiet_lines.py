"""A Python file's docstring, comment and blank lines on each side of a change, read when first
asked: whether a changed line is code or only tells about it."""

from __future__ import annotations

from functools import cached_property

from prdigest.analyzers.symbols.py_pieces import PYTHON
from prdigest.diff import Line
from prdigest.models.pullrequest import FileChange


class QuietLines:
    """The quiet lines of both sides of one file (``None`` for a side that is absent, not
    Python, or does not parse: nothing of it is said to be quiet)."""

    def __init__(self, change: FileChange) -> None:
        self._change = change
        self.python = change.path.endswith((".py", ".pyi"))

    @cached_property
    def before(self) -> frozenset[int] | None:
        text = self._change.content_before
        return PYTHON.quiet_lines(text) if self.python and text is not None else None

    @cached_property
    def after(self) -> frozenset[int] | None:
        text = self._change.content_after
        return PYTHON.quiet_lines(text) if self.python and text is not None else None

    def is_quiet(self, line: Line) -> bool:
        """A blank changed line, or a docstring or comment line on its side."""
        if not line.text.strip():
            return True
        number, quiet = (line.new_line, self.after) if line.kind == "+" else (line.old_line, self.before)
        return number is not None and quiet is not None and number in quiet
