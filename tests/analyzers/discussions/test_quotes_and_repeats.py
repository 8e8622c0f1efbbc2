"""Quotes are prose: link targets with parentheses and closed script elements leave nothing
behind; a review body that repeats its author's line comment is not a second thread."""

from __future__ import annotations

from datetime import UTC, datetime

from prdigest.analyzers.discussions import analyze_discussion
from prdigest.analyzers.discussions.classify import quote_of, topic_of
from prdigest.models.pullrequest import FileChange, PullRequest, Review, ReviewComment, ReviewThread


def test_link_target_with_parentheses_leaves_only_the_link_text() -> None:
    assert quote_of("see [x](javascript:alert(1)) for details") == "see x for details"
    assert quote_of("per [Foo](https://en.wikipedia.org/wiki/Foo_(bar)), yes") == "per Foo, yes"
    assert quote_of("![high](https://x.test/high(1).svg) Bad cast here") == "Bad cast here"


def test_closed_script_element_goes_with_its_content_but_a_named_tag_stays_prose() -> None:
    assert quote_of("Risky: <script>alert('x')</script> here.") == "Risky: here."
    assert topic_of("<STYLE>p{}</STYLE>Why is this needed?") == "Why is this needed?"
    # An unclosed tag is someone naming it: only the tag is dropped, the sentence stays.
    assert quote_of("Never put a <script> tag in templates, the sanitizer drops it.") == (
        "Never put a tag in templates, the sanitizer drops it."
    )


def _pr(review_body: str) -> PullRequest:
    when = datetime(2026, 5, 2, tzinfo=UTC)
    comment = ReviewComment(
        id="1", author="mallory", body="This raises ValueError on empty names, which is wrong.", created_at=when
    )
    return PullRequest(
        repository="acme/widgets",
        number=5,
        title="Harden names",
        author="tomas",
        files=[FileChange(path="widgets/names.py")],
        review_threads=[ReviewThread(path="widgets/names.py", line=4, comments=[comment])],
        reviews=[Review(author="mallory", state="COMMENTED", body=review_body, submitted_at=when)],
    )


def test_review_body_repeating_its_line_comment_is_not_a_second_thread() -> None:
    facts = analyze_discussion(_pr("This raises ValueError on empty names, which is wrong."))
    assert [(t.origin, t.kind) for t in facts.threads] == [("review-thread", "correctness")]


def test_review_body_with_its_own_point_is_still_a_thread() -> None:
    facts = analyze_discussion(_pr("Should we move the name check into the config loader instead?"))
    assert [(t.origin, t.kind) for t in facts.threads] == [("review-thread", "correctness"), ("review", "design")]
