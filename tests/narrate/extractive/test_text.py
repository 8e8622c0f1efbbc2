"""Body reading: boilerplate out, sections found, sentences verbatim; never crashes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from prdigest.analyzers.pr_text import split_body
from prdigest.narrate.extractive.text import clean_title, collapse, key_sentences, shorten


def test_sections_and_boilerplate() -> None:
    body = (
        "<!-- template: describe your change -->\nIntro line explains the fix because X broke.\n\n"
        "## Purpose\nFixes #12 because the cache was stale.\n- [ ] I ran the tests\n- [x] docs\n\n"
        "```python\nsecret_code()\n```\n## Test Plan\npytest tests/foo passes.\n"
        "## Essential Elements Checklist\nFill everything.\n"
    )
    sections = split_body(body)
    assert sections.motivation == [
        "Intro line explains the fix because X broke.",
        "Fixes #12 because the cache was stale.",
    ]
    assert sections.tests == ["pytest tests/foo passes."]
    assert not any("template" in p or "secret_code" in p or "Fill" in p for p in sections.motivation)


def test_key_sentences_keep_order_and_prefer_signals() -> None:
    paragraphs = ["This PR does a thing. Nice weather today. It fixes #5 because the old cap blocked 1.2.3."]
    chosen = key_sentences(paragraphs, 2)
    assert chosen == ["This PR does a thing.", "It fixes #5 because the old cap blocked 1.2.3."]


def test_clean_title_and_shorten() -> None:
    assert clean_title("[Bugfix][CI]  Fix   the\nthing") == "Fix the thing"
    assert clean_title("[WIP]") == "[WIP]"
    assert shorten("word " * 100, 30).endswith("…")
    assert len(shorten("word " * 100, 30)) <= 30


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=600))
def test_any_body_is_read_without_crash_and_quotes_are_verbatim(body: str) -> None:
    sections = split_body(body)
    flat = collapse(body)
    for sentence in key_sentences(sections.motivation + sections.tests, 3, limit=10_000):
        assert "\n" not in sentence
        # every quote is the author's own text (whitespace collapsed)
        assert sentence in flat or all(word in flat for word in sentence.split())
