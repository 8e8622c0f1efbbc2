"""Bots, noise and kind keywords; properties of grouping and text helpers."""

from __future__ import annotations

from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prdigest.analyzers.discussions import analyze_discussion
from prdigest.analyzers.discussions.bots import is_bot, is_code_review_bot, is_slash_command, is_trivial
from prdigest.analyzers.discussions.classify import classify_kind, quote_of, topic_of
from prdigest.analyzers.discussions.grouping import group_review_comments
from prdigest.models.facts import ThreadKind
from prdigest.models.pullrequest import Comment, PullRequest, ReviewComment, ReviewThread


@pytest.mark.parametrize(
    ("login", "flag", "expected"),
    [
        ("dependabot[bot]", False, True),
        ("my-ci-bot", False, True),
        ("Mergify", False, True),
        ("coderabbitai", False, True),
        ("someone", True, True),
        ("njhill", False, False),
        ("robotics-dev", False, False),
    ],
)
def test_bot_detection(login: str, flag: bool, expected: bool) -> None:
    assert is_bot(login, flag) is expected


def test_code_review_bots_and_commands() -> None:
    assert is_code_review_bot("gemini-code-assist[bot]")
    assert not is_code_review_bot("mergify[bot]")
    assert is_slash_command("/ci run")
    assert is_slash_command("@mergifyio rebase")
    assert not is_slash_command("/tmp is full when the test runs twice, see log")
    assert is_trivial("LGTM!")
    assert is_trivial("👍")
    assert not is_trivial("LGTM, but why not cache this?")


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("This will crash with a NameError when humming is missing", "correctness"),
        ("这里会导致回归错误", "correctness"),
        ("This adds latency on the hot path", "performance"),
        ("Why not move this to the base deps instead?", "design"),
        ("nit: rename to load_weights", "style"),
        ("Could you explain the 12 here?", "question"),
        ("Thanks for the explanation, makes sense to me", "other"),
    ],
)
def test_kind_keywords(text: str, kind: str) -> None:
    assert classify_kind(text) == kind


def test_topic_is_first_sentence_without_markup() -> None:
    text = "> quoted earlier text\n\n**Bug**: the cache key ignores `dtype`. Second sentence."
    assert topic_of(text) == "Bug: the cache key ignores dtype."
    assert len(quote_of("x " * 500)) <= 200


KINDS = set(get_args(ThreadKind))


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300), st.lists(st.text(max_size=80), max_size=3))
def test_text_helpers_never_crash(text: str, replies: list[str]) -> None:
    assert classify_kind(text, replies) in KINDS
    assert len(topic_of(text)) <= 100
    assert len(quote_of(text)) <= 200
    is_trivial(text)


comment_ids = st.one_of(st.none(), st.sampled_from(["1", "2", "3", "4"]))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.lists(
            st.tuples(comment_ids, comment_ids, st.sampled_from(["a", "b", "gemini-code-assist[bot]"])), max_size=4
        ),
        max_size=4,
    )
)
def test_grouping_keeps_every_comment_and_analysis_holds(shape: list[list[tuple[str | None, str | None, str]]]) -> None:
    threads = [
        ReviewThread(
            path=f"f{i}.py",
            comments=[
                ReviewComment(id=cid, in_reply_to=parent, author=author, body="Why does this crash?")
                for cid, parent, author in comments
            ],
        )
        for i, comments in enumerate(shape)
    ]
    groups = group_review_comments(threads)
    assert sum(len(g.comments) for g in groups) == sum(len(t.comments) for t in threads)
    pr = PullRequest(
        repository="o/r",
        number=1,
        title="t",
        author="a",
        review_threads=threads,
        comments=[Comment(author="b", body="?")],
    )
    facts = analyze_discussion(pr)
    assert all(t.quotes and len(t.quotes[0].text) <= 200 for t in facts.threads)
    assert "gemini-code-assist[bot]" not in facts.participants
