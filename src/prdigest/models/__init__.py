"""Typed, validated records shared by every layer."""

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
