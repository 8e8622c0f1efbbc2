"""One unified-diff model: a file's patch parsed once into hunks and lines.

Depends only on `prdigest.models` and unidiff; analyzers and narrators read patches
through it and nothing else parses them.
"""

from __future__ import annotations

from prdigest.diff.model import NO_NEWLINE_MARKER, FileDiff, Hunk, Line, LineKind
from prdigest.diff.parse import file_diff, parse_patch

__all__ = ["NO_NEWLINE_MARKER", "FileDiff", "Hunk", "Line", "LineKind", "file_diff", "parse_patch"]
