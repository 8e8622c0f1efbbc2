"""Discussion: bot noise, automated review points, thread kinds and outcomes, approvals."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from prdigest.analyzers.discussions import ANALYZER, analyze_discussion
from prdigest.models.facts import DiscussionFacts, DiscussionThread
from prdigest.models.pullrequest import (
    Comment,
    Commit,
    FileChange,
    PullRequest,
    Review,
    ReviewComment,
    ReviewThread,
)

AUTHOR = "mmangkad"


def at(day: int, hour: int = 0) -> datetime:
    return datetime(2026, 5, day, hour, tzinfo=UTC)


def _pr() -> PullRequest:
    return PullRequest(
        repository="vllm-project/vllm",
        number=43530,
        title="Fix CuPy runtime deps and restore humming",
        author=AUTHOR,
        files=[
            FileChange(path="vllm/model_executor/layers/quantization/humming.py"),
            FileChange(path="requirements/kv_connectors.txt"),
            FileChange(path="setup.py"),
        ],
        commits=[
            Commit(sha="1" * 40, author=AUTHOR, committed_at=at(1), message="first"),
            Commit(sha="2" * 40, author=AUTHOR, committed_at=at(3), message="address review"),
        ],
        comments=[
            Comment(
                author="mergify[bot]",
                created_at=at(1, 2),
                body="This pull request has merge conflicts that must be resolved before it can be merged. "
                f"Please rebase the PR, @{AUTHOR}.",
            ),
            Comment(
                author="mergify",
                author_is_bot=True,
                created_at=at(1, 3),
                body=f"Hi @{AUTHOR}, the pre-commit checks have failed. Please run `pre-commit run`.",
            ),
            Comment(
                author="mgoin",
                created_at=at(2, 1),
                body="@mmangkad could you also help check #42599? IIRC, you added this before due to CI issues.",
            ),
            Comment(author="njhill", created_at=at(4), body="/ci run"),
            Comment(author="leofang", created_at=at(4, 1), body="LGTM!"),
        ],
        reviews=[
            Review(author="njhill", state="APPROVED", submitted_at=at(4, 2), body=""),
            Review(
                author="gemini-code-assist[bot]",
                state="COMMENTED",
                submitted_at=at(1, 1),
                body="## Code Review\n\nThis pull request restores humming support.",
            ),
            Review(author="mgoin", state="CHANGES_REQUESTED", submitted_at=at(2), body="LGTM"),
        ],
        review_threads=[
            ReviewThread(
                path="vllm/model_executor/layers/quantization/humming.py",
                line=40,
                comments=[
                    ReviewComment(
                        author="gemini-code-assist[bot]",
                        created_at=at(1, 1),
                        body="![high](https://www.gstatic.com/codereviewagent/high-priority.svg)\n\n"
                        "Removing `assert_humming_available` means users without humming get a NameError "
                        "instead of a clear install hint. Consider keeping the check.",
                    )
                ],
            ),
            ReviewThread(
                path="requirements/kv_connectors.txt",
                line=3,
                resolved=None,
                comments=[
                    ReviewComment(
                        author="mgoin",
                        created_at=at(2),
                        body="Should we move the cupy cap to the base deps instead of kv_connectors.txt?",
                    ),
                    ReviewComment(
                        author=AUTHOR,
                        created_at=at(2, 4),
                        body="humming does not depend on cupy directly; lmcache pulls it in, so this file is enough.",
                    ),
                ],
            ),
            ReviewThread(
                path="setup.py",
                line=10,
                resolved=True,
                comments=[ReviewComment(author="mgoin", created_at=at(2), body="nit: typo in the variable name")],
            ),
            ReviewThread(
                path="setup.py",
                line=20,
                resolved=False,
                comments=[
                    ReviewComment(author="leofang", created_at=at(2), body="Why is the cu12 rewrite needed here?"),
                    ReviewComment(author="mgoin", created_at=at(2, 5), body="I am also not sure about this one."),
                ],
            ),
        ],
    )


def _thread(facts: DiscussionFacts, path: str, line: int) -> DiscussionThread:
    matches = [t for t in facts.threads if t.path == path and t.line == line]
    assert len(matches) == 1
    return matches[0]


@pytest.fixture
def facts() -> DiscussionFacts:
    return analyze_discussion(_pr())


def test_merge_bot_notices_and_commands_are_noise(facts: DiscussionFacts) -> None:
    # 2 mergify comments + "/ci run" + gemini's summary review
    assert facts.bot_notice_count == 4
    assert all("mergify" not in p and "gemini" not in p for p in facts.participants)
    assert all("rebase" not in t.topic.lower() and "pre-commit" not in t.topic for t in facts.threads)


def test_automated_correctness_point_without_reply(facts: DiscussionFacts) -> None:
    thread = _thread(facts, "vllm/model_executor/layers/quantization/humming.py", 40)
    assert thread.automated is True
    assert thread.kind == "correctness"
    assert thread.outcome == "no-reply"
    assert thread.participants == []
    assert thread.quotes[0].is_bot is True
    assert "NameError" in thread.quotes[0].text
    assert "gstatic" not in thread.quotes[0].text
    assert thread.topic.startswith("Removing assert_humming_available means")


def test_design_thread_answered_by_author(facts: DiscussionFacts) -> None:
    thread = _thread(facts, "requirements/kv_connectors.txt", 3)
    assert (thread.kind, thread.outcome, thread.automated) == ("design", "answered", False)
    assert thread.participants == ["mgoin", AUTHOR]
    assert [q.author for q in thread.quotes] == ["mgoin", AUTHOR]


def test_resolved_and_unresolved_threads(facts: DiscussionFacts) -> None:
    resolved = _thread(facts, "setup.py", 10)
    assert (resolved.kind, resolved.outcome) == ("style", "resolved")
    question = _thread(facts, "setup.py", 20)
    assert (question.kind, question.outcome) == ("question", "unresolved")


def test_conversation_question_and_approvals(facts: DiscussionFacts) -> None:
    conversation = [t for t in facts.threads if t.origin == "conversation"]
    assert len(conversation) == 1
    assert (conversation[0].kind, conversation[0].outcome) == ("question", "no-reply")
    assert "#42599" in conversation[0].topic
    assert facts.approvals == ["njhill"]
    assert facts.changes_requested_by == ["mgoin"]
    assert facts.review_comment_count == 6
    assert facts.conversation_comment_count == 5
    # LGTM-only review bodies and comments are not threads
    assert not [t for t in facts.threads if t.origin == "review"]
    assert set(facts.participants) == {"mgoin", AUTHOR, "leofang", "njhill"}


def test_changed_in_code_when_outdated_and_a_later_commit_exists() -> None:
    pr = _pr()
    pr.review_threads = [
        ReviewThread(
            path="setup.py",
            line=None,
            original_line=7,
            outdated=True,
            comments=[ReviewComment(author="mgoin", created_at=at(2), body="This crashes on CUDA 12, wrong variant.")],
        )
    ]
    (thread,) = [t for t in analyze_discussion(pr).threads if t.origin == "review-thread"]
    assert (thread.outcome, thread.line, thread.kind) == ("changed-in-code", 7, "correctness")
    pr.commits = pr.commits[:1]  # no commit after the comment: not changed in code
    (thread,) = [t for t in analyze_discussion(pr).threads if t.origin == "review-thread"]
    assert thread.outcome == "no-reply"


def test_rest_style_comments_are_split_by_reply_chain() -> None:
    pr = _pr()
    pr.review_threads = [
        ReviewThread(
            path="setup.py",
            comments=[
                ReviewComment(id="1", author="mgoin", created_at=at(2), body="Why not reuse the helper here?"),
                ReviewComment(id="2", author="leofang", created_at=at(2, 1), body="This leaks memory in the loop."),
                ReviewComment(id="3", in_reply_to="1", author=AUTHOR, created_at=at(2, 2), body="Good idea, done."),
            ],
        ),
        ReviewThread(
            path="setup.py",
            comments=[
                ReviewComment(id="4", in_reply_to="2", author=AUTHOR, created_at=at(2, 3), body="Fixed, thanks.")
            ],
        ),
    ]
    threads = [t for t in analyze_discussion(pr).threads if t.origin == "review-thread"]
    assert [(t.participants, t.outcome) for t in threads] == [
        (["mgoin", AUTHOR], "answered"),
        (["leofang", AUTHOR], "answered"),
    ]
    assert threads[1].kind == "performance"


def test_analyzer_wraps_the_function() -> None:
    from prdigest.analyzers.context import AnalysisContext

    pr = _pr()
    assert ANALYZER.name == "discussion"
    assert ANALYZER.run(pr, AnalysisContext()) == analyze_discussion(pr)
