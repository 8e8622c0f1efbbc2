"""The "discussion" analyzer: substantive review points, who raised them, how they ended.

Not threads: bot notices and slash commands (counted in ``bot_notice_count``), human
acknowledgements ("LGTM", "+1"). Approvals and change requests come from reviews.
Automated code-review comments become threads (``automated=True``) only when they raise
a correctness, design or performance point or carry a high/critical badge.

Outcome, first match wins: the thread is resolved → "resolved"; it is outdated, on a
file of the PR, and a commit came after its first comment → "changed-in-code"; the PR
author (or, for the author's own thread, someone else) replied, or another person
replied and resolution is unknown → "answered"; there are replies → "unresolved";
otherwise "no-reply".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.discussions.bots import is_bot, is_bot_notice, is_code_review_bot, is_trivial
from prdigest.analyzers.discussions.classify import classify_kind, quote_of, suggestion_of, topic_of
from prdigest.analyzers.discussions.grouping import (
    CommentGroup,
    group_conversation,
    group_review_comments,
    timestamp,
)
from prdigest.analyzers.registry import Analyzer
from prdigest.analyzers.versions import DEFAULT_VERSIONS
from prdigest.models.facts import DiscussionFacts, DiscussionThread, Quote, ThreadOutcome
from prdigest.models.pullrequest import Comment, PullRequest, Review, ReviewComment

_BADGE = re.compile(r"!\[(critical|high)\]|\b(?:critical|high)[- ]priority\b|\bhigh[- ]severity\b", re.I)
_MAX_QUOTES = 3


@dataclass
class _Tally:
    notices: int = 0


def _bot(comment: ReviewComment | Comment | Review) -> bool:
    return is_bot(comment.author, comment.author_is_bot)


def _substantive_bot_point(text: str) -> bool:
    if is_bot_notice(text):
        return False
    return bool(_BADGE.search(text)) or classify_kind(text) in ("correctness", "design", "performance")


def _opener_index(group: CommentGroup) -> tuple[int, bool] | None:
    """Index of the comment that opens the discussion, and whether a bot opened it."""
    for index, comment in enumerate(group.comments):
        if _bot(comment):
            if is_code_review_bot(comment.author) and _substantive_bot_point(comment.body):
                return index, True
            continue
        if not is_trivial(comment.body) or suggestion_of(comment.body) is not None:
            return index, False
    return None


def _count_noise(comments: list[ReviewComment | Comment], tally: _Tally) -> None:
    for comment in comments:
        command = is_trivial(comment.body) and comment.body.strip().startswith(("/", "@"))
        if _bot(comment) or command:
            tally.notices += 1


def _outcome(group: CommentGroup, opener: ReviewComment | Comment, pr: PullRequest) -> ThreadOutcome:
    start = group.comments.index(opener)
    replies = [c for c in group.comments[start + 1 :] if not _bot(c)]
    if group.resolved is True:
        return "resolved"
    if group.outdated and group.path and opener.created_at is not None:
        paths = {f.path for f in pr.files}
        opened = timestamp(opener.created_at)
        later_commit = any(c.committed_at is not None and timestamp(c.committed_at) > opened for c in pr.commits)
        if group.path in paths and later_commit:
            return "changed-in-code"
    others = {c.author for c in replies if c.author != opener.author}
    author = pr.author
    author_answered = opener.author != author and author in others
    if author is not None and (author_answered or (opener.author == author and others)):
        return "answered"
    if others and group.resolved is None:
        return "answered"
    if replies:
        return "unresolved"
    return "no-reply"


def _quotes(group: CommentGroup, opener: ReviewComment | Comment, pr: PullRequest) -> list[Quote]:
    quotes = [Quote(author=opener.author, text=quote_of(opener.body), is_bot=_bot(opener))]
    replies = [
        c
        for c in group.comments[group.comments.index(opener) + 1 :]
        if not _bot(c) and c.author != opener.author and not is_trivial(c.body)
    ]
    # The PR author's answer first: it usually settles the point.
    replies.sort(key=lambda c: 0 if c.author == pr.author else 1)
    quotes.extend(Quote(author=c.author, text=quote_of(c.body)) for c in replies[: _MAX_QUOTES - 1])
    return quotes


def _thread_from_group(group: CommentGroup, pr: PullRequest, origin: str, tally: _Tally) -> DiscussionThread | None:
    found = _opener_index(group)
    if found is None:
        _count_noise(group.comments, tally)
        return None
    index, automated = found
    opener = group.comments[index]
    _count_noise([c for c in group.comments if c is not opener and _bot(c)], tally)
    replies = [c.body for c in group.comments[index + 1 :] if not _bot(c)]
    people = _unique(c.author for c in group.comments[index:] if not _bot(c))
    return DiscussionThread(
        topic=topic_of(opener.body),
        kind=classify_kind(opener.body, replies),
        outcome=_outcome(group, opener, pr),
        path=group.path,
        line=group.line,
        origin="review-thread" if origin == "review-thread" else "conversation",
        participants=people,
        quotes=_quotes(group, opener, pr),
        automated=automated,
        suggestion=suggestion_of(opener.body),
    )


def _review_thread(review: Review, pr: PullRequest) -> DiscussionThread:
    """A review body with a point of its own; answered when the author later @-replied."""
    answered = any(
        c.author == pr.author
        and f"@{review.author}".lower() in c.body.lower()
        and (
            review.submitted_at is None
            or c.created_at is None
            or timestamp(c.created_at) > timestamp(review.submitted_at)
        )
        for c in pr.comments
    )
    return DiscussionThread(
        topic=topic_of(review.body),
        kind=classify_kind(review.body),
        outcome="answered" if answered else "no-reply",
        origin="review",
        participants=[review.author],
        quotes=[Quote(author=review.author, text=quote_of(review.body))],
        suggestion=suggestion_of(review.body),
    )


def _opened(group: CommentGroup) -> float:
    first = group.comments[0].created_at
    return timestamp(first) if first is not None else float("inf")


def _unique(names: Iterable[str]) -> list[str]:
    seen: list[str] = []
    for name in names:
        if name not in seen:
            seen.append(name)
    return seen


def analyze_discussion(pr: PullRequest) -> DiscussionFacts:
    """Threads, approvals and noise counts of one PR."""
    tally = _Tally()
    threads: list[tuple[float, int, DiscussionThread]] = []

    def add(thread: DiscussionThread | None, when: float) -> None:
        if thread is not None:
            threads.append((when, len(threads), thread))

    for group in group_review_comments(pr.review_threads):
        add(_thread_from_group(group, pr, "review-thread", tally), _opened(group))

    substantive: list[Comment] = []
    for comment in pr.comments:
        if _bot(comment) or is_trivial(comment.body):
            _count_noise([comment], tally)
        else:
            substantive.append(comment)
    for group in group_conversation(substantive, pr.author):
        add(_thread_from_group(group, pr, "conversation", tally), _opened(group))

    # A review body that repeats its author's own line or conversation comment (GitHub's
    # "single comment" reviews, pasted summaries) is that thread again, not a new point.
    opened = {(t.quotes[0].author, t.quotes[0].text, t.suggestion) for _, _, t in threads if t.quotes}
    approvals: list[str] = []
    changes_requested: list[str] = []
    for review in pr.reviews:
        if _bot(review):
            tally.notices += 1 if review.body.strip() else 0
            continue
        if review.state.upper() == "APPROVED" and review.author not in approvals:
            approvals.append(review.author)
        if review.state.upper() == "CHANGES_REQUESTED" and review.author not in changes_requested:
            changes_requested.append(review.author)
        said = (review.author, quote_of(review.body), suggestion_of(review.body))
        has_point = not is_trivial(review.body) or suggestion_of(review.body) is not None
        if has_point and said not in opened:
            when = timestamp(review.submitted_at) if review.submitted_at else float("inf")
            add(_review_thread(review, pr), when)
            opened.add(said)  # the same body submitted again by its reviewer is one point

    participants = _unique(
        [c.author for t in pr.review_threads for c in t.comments if not _bot(c)]
        + [c.author for c in pr.comments if not _bot(c)]
        + [r.author for r in pr.reviews if not _bot(r)]
    )
    threads.sort(key=lambda item: (item[0], item[1]))
    return DiscussionFacts(
        threads=[thread for _, _, thread in threads],
        review_comment_count=sum(len(t.comments) for t in pr.review_threads),
        conversation_comment_count=len(pr.comments),
        bot_notice_count=tally.notices,
        approvals=approvals,
        changes_requested_by=changes_requested,
        participants=participants,
    )


def _run(pr: PullRequest, ctx: AnalysisContext) -> DiscussionFacts:
    return analyze_discussion(pr)


# v2: review bodies repeating their author's comment are not threads again; link targets with
# parentheses and closed <script>/<style> elements no longer leave code or ")" in quotes.
# v3: suggestion blocks kept (DiscussionThread.suggestion); a reviewer's repeated body counts
# once; HTML entities decoded in quotes and topics.
ANALYZER = Analyzer(name="discussion", version=DEFAULT_VERSIONS["discussion"], run=_run, requires=())
