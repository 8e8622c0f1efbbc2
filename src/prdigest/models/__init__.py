"""Typed, validated records shared by every layer.

The names below load on first use (PEP 562), so a module of this package that needs no
pydantic (`states`, `plain_records`) can be imported without loading the models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from prdigest.models.pullrequest import (
        Comment,
        Commit,
        FileChange,
        FileStatus,
        PRState,
        PullRequest,
        Review,
        ReviewComment,
        ReviewThread,
    )

__all__ = [
    "Comment",
    "Commit",
    "FileChange",
    "FileStatus",
    "PRState",
    "PullRequest",
    "Review",
    "ReviewComment",
    "ReviewThread",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from prdigest.models import pullrequest

        return getattr(pullrequest, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
