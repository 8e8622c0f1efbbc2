"""THE normalizer of the GitHub source: a `Bundle` (REST shapes) becomes a `PullRequest`.

Live syncs convert GraphQL answers to a bundle first (``graphql_to_bundle``), so a sync and an
``import`` of the bundle it saved go through this same code and give equal records.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

from prdigest.errors import BundleError
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
from prdigest.sources.github.bundle_models import (
    Bundle,
    GqlActor,
    GqlReviewComment,
    GqlReviewThread,
    RestCommit,
    RestFile,
    RestReviewComment,
    RestUser,
)

T = TypeVar("T")
GHOST = "ghost"  # GitHub's name for deleted accounts
_CO_AUTHOR = re.compile(r"^\s*co-authored-by:\s*(?P<name>[^<\n]*?)\s*(?:<[^>\n]*>)?\s*$", re.IGNORECASE | re.MULTILINE)
_STATUS = {
    "added": FileStatus.ADDED,
    "removed": FileStatus.REMOVED,
    "renamed": FileStatus.RENAMED,
    "copied": FileStatus.COPIED,
}


def is_bot(login: str | None, kind: str | None) -> bool:
    """``user.type == "Bot"``, ``__typename == "Bot"`` or a login ending in ``[bot]``."""
    return kind == "Bot" or (login or "").endswith("[bot]")


def bundle_repository(bundle: Bundle) -> str:
    if bundle.repository:
        return bundle.repository
    repo = bundle.pull.base.repo
    if repo is None:
        raise BundleError("$.repository: required key is missing (or $.pull.base.repo.full_name)")
    return repo.full_name


def normalize_bundle(bundle: Bundle) -> PullRequest:
    pull = bundle.pull
    state = PRState.MERGED if pull.merged_at else PRState.OPEN if pull.state == "open" else PRState.CLOSED
    files = [_file(f, bundle) for f in bundle.files]
    changed = pull.changed_files
    truncated = (changed is not None and changed > len(files)) or any(f.truncated for f in files)
    return PullRequest(
        repository=bundle_repository(bundle),
        number=pull.number,
        title=pull.title,
        body=pull.body or "",
        author=pull.user.login if pull.user else None,
        state=state,
        created_at=pull.created_at,
        updated_at=pull.updated_at,
        merged_at=pull.merged_at,
        closed_at=pull.closed_at,
        url=pull.html_url,
        base_ref=pull.base.ref,
        head_ref=pull.head.ref,
        base_sha=pull.base.sha,
        head_sha=pull.head.sha,
        merge_commit_sha=pull.merge_commit_sha,
        labels=[label.name for label in pull.labels],
        additions=pull.additions if pull.additions is not None else sum(f.additions for f in files),
        deletions=pull.deletions if pull.deletions is not None else sum(f.deletions for f in files),
        files=files,
        files_truncated=truncated,
        changed_files_count=changed if changed is not None else len(files),
        commits=[_commit(c) for c in first_of_each(bundle.commits, lambda c: c.sha)],
        reviews=[
            Review(
                author=_login(r.user),
                state=r.state.upper(),
                submitted_at=r.submitted_at,
                body=r.body or "",
                author_is_bot=_rest_bot(r.user),
                commit_sha=r.commit_id,
            )
            for r in first_of_each(bundle.reviews, lambda r: r.id)
        ],
        review_threads=(
            _graphql_threads(bundle.review_threads)
            if bundle.review_threads is not None
            else _rest_threads(first_of_each(bundle.review_comments, lambda c: c.id))
        ),
        comments=[
            Comment(author=_login(c.user), body=c.body or "", created_at=c.created_at, author_is_bot=_rest_bot(c.user))
            for c in first_of_each(bundle.issue_comments, lambda c: c.id)
        ],
        closing_issues=_closing_issues(bundle),
        source=bundle.source,
    )


def _login(user: RestUser | GqlActor | None) -> str:
    return user.login if user is not None else GHOST


def _rest_bot(user: RestUser | None) -> bool:
    return user is not None and is_bot(user.login, user.type)


def _file(item: RestFile, bundle: Bundle) -> FileChange:
    status = _STATUS.get(item.status, FileStatus.MODIFIED)
    no_patch = item.patch is None
    # GitHub omits the patch of binary files (no line counts) and of huge diffs (with counts).
    binary = no_patch and item.additions == 0 and item.deletions == 0 and status != FileStatus.REMOVED
    before_path = item.previous_filename or item.filename
    return FileChange(
        path=item.filename,
        previous_path=item.previous_filename,
        status=status,
        additions=item.additions,
        deletions=item.deletions,
        patch=item.patch,
        binary=binary,
        truncated=no_patch and (item.additions + item.deletions) > 0,
        content_before=None if status == FileStatus.ADDED else _content(bundle, "base", before_path),
        content_after=None if status == FileStatus.REMOVED else _content(bundle, "head", item.filename),
    )


def _content(bundle: Bundle, side: str, path: str) -> str | None:
    for entry in bundle.contents:
        if entry.side == side and entry.path == path:
            return decode_content(entry.object.encoding, entry.object.content)
    return None


def decode_content(encoding: str | None, content: str | None) -> str | None:
    """Text of a REST contents object; None for binary, non-UTF-8 or over-1-MB files."""
    if content is None or encoding != "base64":
        return None
    try:
        raw = base64.b64decode(content.replace("\n", ""), validate=True)
        text = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    return None if "\x00" in text else text


def _commit(item: RestCommit) -> Commit:
    actor = item.commit.author
    author = actor.name if actor and actor.name else (item.author.login if item.author else GHOST)
    return Commit(
        sha=item.sha,
        author=author,
        author_email=actor.email if actor else None,
        co_authors=co_authors(item.commit.message),
        committed_at=actor.date if actor else None,
        message=item.commit.message,
    )


def co_authors(message: str) -> list[str]:
    """Names in ``Co-authored-by:`` trailers, in order, without duplicates."""
    names: list[str] = []
    for match in _CO_AUTHOR.finditer(message):
        name = match.group("name").strip()
        if name and name not in names:
            names.append(name)
    return names


def first_of_each(items: Iterable[T], key: Callable[[T], Hashable | None]) -> list[T]:
    """`items` without repeats of a key (the first is kept); items without a key all stay.

    GitHub's pages can overlap when a PR changes between two requests, so one comment may
    come twice; stored twice, it would be quoted and counted twice."""
    seen: set[Hashable] = set()
    kept: list[T] = []
    for item in items:
        value = key(item)
        if value is not None:
            if value in seen:
                continue
            seen.add(value)
        kept.append(item)
    return kept


def _graphql_threads(threads: list[GqlReviewThread]) -> list[ReviewThread]:
    """Threads with each comment once (by databaseId, across threads); a thread left
    without comments by that (a repeated page) is dropped."""
    seen: set[int] = set()
    result: list[ReviewThread] = []
    for thread in threads:
        nodes = [n for n in thread.comments.nodes if n.databaseId is None or n.databaseId not in seen]
        seen.update(n.databaseId for n in nodes if n.databaseId is not None)
        if nodes or not thread.comments.nodes:
            result.append(_graphql_thread(thread, nodes))
    return result


def _graphql_thread(thread: GqlReviewThread, nodes: list[GqlReviewComment]) -> ReviewThread:
    return ReviewThread(
        path=thread.path,
        line=thread.line,
        original_line=thread.originalLine,
        diff_hunk=nodes[0].diffHunk if nodes else None,
        comments=[
            ReviewComment(
                author=_login(c.author),
                body=c.body,
                created_at=c.createdAt,
                author_is_bot=c.author is not None and is_bot(c.author.login, c.author.typename),
                commit_sha=c.commit.oid if c.commit else None,
                id=str(c.databaseId) if c.databaseId is not None else None,
                in_reply_to=(
                    str(c.replyTo.databaseId) if c.replyTo is not None and c.replyTo.databaseId is not None else None
                ),
            )
            for c in nodes
        ],
        resolved=thread.isResolved,
        outdated=thread.isOutdated,
    )


def _rest_threads(comments: list[RestReviewComment]) -> list[ReviewThread]:
    """Group REST review comments into threads by following ``in_reply_to_id`` to the root."""
    by_id = {c.id: c for c in comments if c.id is not None}
    threads: dict[int, ReviewThread] = {}
    order: list[int] = []
    for index, comment in enumerate(comments):
        root = comment
        seen: set[int] = set()
        while root.in_reply_to_id is not None and root.in_reply_to_id in by_id and root.in_reply_to_id not in seen:
            seen.add(root.in_reply_to_id)
            root = by_id[root.in_reply_to_id]
        key = root.id if root.id is not None else -1 - index
        if key not in threads:
            threads[key] = ReviewThread(
                path=root.path, line=root.line, original_line=root.original_line, diff_hunk=root.diff_hunk
            )
            order.append(key)
        threads[key].comments.append(
            ReviewComment(
                author=_login(comment.user),
                body=comment.body,
                created_at=comment.created_at,
                author_is_bot=_rest_bot(comment.user),
                commit_sha=comment.commit_id,
                id=str(comment.id) if comment.id is not None else None,
                in_reply_to=str(comment.in_reply_to_id) if comment.in_reply_to_id is not None else None,
            )
        )
    return [threads[key] for key in order]


def _closing_issues(bundle: Bundle) -> list[int]:
    """Numbers of closing issues in the PR's own repository (the record keeps numbers only)."""
    repository = bundle_repository(bundle).lower()
    numbers: list[int] = []
    for ref in bundle.closing_issues_references:
        same_repo = ref.repository is None or ref.repository.nameWithOwner.lower() == repository
        if same_repo and ref.number not in numbers:
            numbers.append(ref.number)
    return numbers
