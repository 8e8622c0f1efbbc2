"""A review thread the code answered (outdated by a later commit to its file) is where the
change got its final shape: the verdict counts it; a thread left as it was does not."""

from __future__ import annotations

from datetime import UTC, datetime

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.defaults import default_registry
from prdigest.analyzers.registry import run_all
from prdigest.models.pullrequest import Commit, FileChange, PullRequest, ReviewComment, ReviewThread

PATCH = "@@ -1,3 +1,3 @@\n def limit(n):\n-    return n > 10\n+    return n >= 10\n \n"


def _pr(outdated: bool) -> PullRequest:
    return PullRequest(
        repository="acme/calc",
        number=9,
        title="Make the limit inclusive",
        author="dev",
        files=[FileChange(path="calc/limit.py", additions=1, deletions=1, patch=PATCH)],
        commits=[
            Commit(sha="a" * 40, author="dev", committed_at=datetime(2024, 1, 1, tzinfo=UTC), message="first"),
            Commit(sha="b" * 40, author="dev", committed_at=datetime(2024, 1, 3, tzinfo=UTC), message="review"),
        ],
        review_threads=[
            ReviewThread(
                path="calc/limit.py",
                line=None,
                original_line=2,
                outdated=outdated,
                comments=[
                    ReviewComment(
                        author="rev",
                        created_at=datetime(2024, 1, 2, tzinfo=UTC),
                        body="This breaks callers that pass exactly 10, the boundary is wrong.",
                    )
                ],
            )
        ],
    )


def test_a_thread_the_code_answered_is_a_reason() -> None:
    facts = run_all(_pr(outdated=True), default_registry(), AnalysisContext())
    reasons = {r.code: r for r in facts.verdict.reasons}
    assert reasons["review-changed"].weight > 0
    assert reasons["review-changed"].items[0].params["count"] == "1"


def test_a_thread_left_as_it_was_is_not() -> None:
    facts = run_all(_pr(outdated=False), default_registry(), AnalysisContext())
    assert "review-changed" not in {r.code for r in facts.verdict.reasons}
