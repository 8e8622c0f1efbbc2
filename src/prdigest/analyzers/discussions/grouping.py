"""Group review comments into threads, and conversation comments into exchanges.

Review comments: the record's `ReviewThread` is the starting point. When a source gives
REST-style comments (ids with ``in_reply_to``), replies are attached to their root even
across record threads, and a thread holding several roots is split.

Conversation comments have no reply structure. A comment joins an earlier exchange when
it quotes it (``>`` lines) or @-mentions its opener; a PR author's comment with neither
answers the latest open exchange opened by someone else. Otherwise it opens a new one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from prdigest.models.pullrequest import Comment, ReviewComment, ReviewThread


@dataclass
class CommentGroup:
    """Comments of one thread in order, with the thread's position and state."""

    comments: list[ReviewComment | Comment] = field(default_factory=list)
    path: str | None = None
    line: int | None = None
    resolved: bool | None = None
    outdated: bool | None = None


def group_review_comments(threads: list[ReviewThread]) -> list[CommentGroup]:
    """Review comments grouped by reply chain; each group keeps its record thread's state."""
    parent: dict[int, int] = {}  # node -> parent node (union-find over comment indices)
    nodes: list[tuple[ReviewComment, ReviewThread]] = []
    by_id: dict[str, int] = {}
    for thread in threads:
        for comment in thread.comments:
            index = len(nodes)
            nodes.append((comment, thread))
            parent[index] = index
            if comment.id is not None:
                by_id.setdefault(comment.id, index)

    def find(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    def union(child: int, root: int) -> None:
        a, b = find(child), find(root)
        if a != b:
            # The earlier comment stays root so the opener is the group's first comment.
            parent[max(a, b)] = min(a, b)

    index = 0
    for thread in threads:
        first = index
        rest_style = any(c.in_reply_to is not None for c in thread.comments)
        for offset, comment in enumerate(thread.comments):
            current = first + offset
            if comment.in_reply_to is not None and comment.in_reply_to in by_id:
                union(current, by_id[comment.in_reply_to])
            elif offset > 0 and not (rest_style and comment.id is not None and comment.in_reply_to is None):
                union(current, first)
        index += len(thread.comments)

    groups: dict[int, CommentGroup] = {}
    for position, (comment, thread) in enumerate(nodes):
        root = find(position)
        group = groups.get(root)
        if group is None:
            group = CommentGroup(
                path=thread.path,
                line=thread.line if thread.line is not None else thread.original_line,
                resolved=thread.resolved,
                outdated=thread.outdated,
            )
            groups[root] = group
        group.comments.append(comment)
    for group in groups.values():
        group.comments.sort(key=lambda c: _time_key(c.created_at))
    return [groups[root] for root in sorted(groups)]


_MENTION = re.compile(r"@([A-Za-z0-9][A-Za-z0-9-]*(?:\[bot\])?)")
_QUOTE = re.compile(r"^\s*>\s?(.*)$", re.M)


def group_conversation(comments: list[Comment], pr_author: str | None) -> list[CommentGroup]:
    """Conversation comments (already filtered to substantive ones) grouped into exchanges."""
    groups: list[CommentGroup] = []
    ordered = sorted(enumerate(comments), key=lambda item: (_time_key(item[1].created_at), item[0]))
    for _, comment in ordered:
        target = _conversation_target(comment, groups, pr_author)
        if target is None:
            groups.append(CommentGroup(comments=[comment]))
        else:
            target.comments.append(comment)
    return groups


def _conversation_target(comment: Comment, groups: list[CommentGroup], pr_author: str | None) -> CommentGroup | None:
    quoted = " ".join(q.strip() for q in _QUOTE.findall(comment.body) if q.strip())
    mentions = {m.lower() for m in _MENTION.findall(comment.body)}
    for group in reversed(groups):
        opener = group.comments[0].author
        if opener == comment.author:
            continue
        if quoted and any(quoted[:60] in c.body for c in group.comments):
            return group
        # "@author could you ..." from a reviewer raises a new point rather than replying.
        if opener.lower() in mentions and opener != pr_author:
            return group
    if pr_author is not None and comment.author == pr_author:
        for group in reversed(groups):
            if group.comments[0].author != pr_author:
                return group
    return None


def _time_key(when: datetime | None) -> float:
    return timestamp(when) if when is not None else float("-inf")


def timestamp(when: datetime) -> float:
    """Seconds since the epoch; naive datetimes are read as UTC so mixed records compare."""
    return (when.replace(tzinfo=UTC) if when.tzinfo is None else when).timestamp()
