"""The author's own words of a PR body: bot blocks, templates and markup out."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from prdigest.analyzers.pr_text import author_paragraphs, author_text, split_body, strip_emphasis

BODY = (
    "<!-- .github/pull_request_template.md -->\n"
    "## Description\n\nThe cache was **stale** because the key ignored the dtype.\n\n"
    "```\nTraceback (most recent call last):\n```\n\n"
    "<!-- This is an auto-generated comment: release notes by coderabbit.ai\n-->\n"
    "## Summary by CodeRabbit\n\n* **Bug Fixes**\n* Fixed a crash.\n"
    "<!-- end of auto-generated comment: release notes by coderabbit.ai -->\n\n"
    "Measured 12% faster afterwards.\n\n"
    "## Summary by Sourcery\n\nBug Fixes:\n- Profiled the kernel.\n\n"
    "## Test Plan\n- [x] ran it\n\npytest tests/test_cache.py\n"
)


def test_bot_blocks_and_sections_are_not_the_authors_words() -> None:
    assert author_paragraphs(BODY) == [
        "The cache was stale because the key ignored the dtype.",
        "Measured 12% faster afterwards.",
        "pytest tests/test_cache.py",
    ]
    text = author_text(BODY)
    assert "Traceback" in text  # a pasted trace is the author's evidence
    assert "Description" in text.splitlines()  # and so are the author's headings
    for bot_words in ("Bug Fixes", "crash", "Profiled"):
        assert bot_words not in text
    assert split_body(BODY).tests == ["pytest tests/test_cache.py"]


def test_emphasis_markers_go_and_code_stays() -> None:
    assert strip_emphasis("**Why:** it *crashes* on __very old__ GPUs") == "Why: it crashes on very old GPUs"
    assert (
        strip_emphasis("`__init__` and __init__, 2*3*4, my_var_name") == "`__init__` and __init__, 2*3*4, my_var_name"
    )
    assert strip_emphasis("`a *b* c` *d*") == "`a *b* c` d"


@settings(max_examples=200, deadline=None)
@given(
    st.text(max_size=400) | st.lists(st.sampled_from(["*", "_", "`", "**", " ", "a", "\n", "<!--", "-->"])).map("".join)
)
def test_any_body_reads_without_crash(body: str) -> None:
    assert "<!--" not in author_text(body)
    stripped = strip_emphasis(body)
    # only markers are removed: every other character stays, in order
    assert stripped.replace("*", "").replace("_", "") == body.replace("*", "").replace("_", "")
