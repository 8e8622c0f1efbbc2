"""Whether a PR changes what the code does, as opposed to how it reads.

A regression test is only owed by a change in behaviour: not by a revert (it restores code
that was already tested), a version bump, a typo fix, or edits to comments, docstrings and
whitespace. Python files whose both sides parse are compared as syntax trees without
docstrings and version constants; other files line by line, comments and blank lines aside.
"""

from __future__ import annotations

import re

from prdigest.analyzers.symbols.py_pieces import PYTHON
from prdigest.diff import file_diff
from prdigest.models.pullrequest import FileChange, PullRequest

# Comment lines of the common languages; `#include` / `#define` (C preprocessor) are code.
_COMMENT = re.compile(
    r"^\s*(?:#(?!\s*(?:include|define|undef|if|ifdef|ifndef|elif|else|endif|pragma|import)\b)|//|/\*|\*(?:\s|/|$)|--\s|<!--)"
)
_VERSION_LINE = re.compile(
    r"""^\s*(?:__version__|VERSION|version|__VERSION__|_version)\s*[:=]\s*(?:\w+\s*=\s*)?["'][^"']*["']\s*,?\s*$"""
)
_REVERT_TITLE = re.compile(r"^\s*(?:\[[^\]]*\]\s*)*revert\b", re.IGNORECASE)
_REVERT_BODY = re.compile(r"\bThis reverts commit [0-9a-f]{7,40}\b")
_TYPO_TITLE = re.compile(r"\b(?:typos?|spelling|misspell\w*|grammar)\b", re.IGNORECASE)


def is_revert(pr: PullRequest) -> bool:
    """The title says "Revert …" or the body carries git's "This reverts commit <sha>"."""
    return bool(_REVERT_TITLE.match(pr.title) or _REVERT_BODY.search(pr.body))


def is_typo_fix(pr: PullRequest) -> bool:
    return _TYPO_TITLE.search(pr.title) is not None


def file_changes_behaviour(change: FileChange) -> bool:
    """Whether one source file's change can alter what it does."""
    if change.path.endswith((".py", ".pyi")) and change.content_before is not None and change.content_after is not None:
        before, after = PYTHON.shape(change.content_before), PYTHON.shape(change.content_after)
        if before is not None and after is not None:
            return before != after
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
