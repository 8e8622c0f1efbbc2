"""Property tests: the reference parser never crashes and only reports valid references."""

from __future__ import annotations

from typing import get_args

from hypothesis import given, settings
from hypothesis import strategies as st

from prdigest.analyzers.reference_patterns import mask_code_and_markup, sentence_around
from prdigest.analyzers.references import extract_references, references_in_text
from prdigest.models.facts import Relation
from prdigest.models.pullrequest import PullRequest

RELATIONS = set(get_args(Relation))
# Text biased towards the characters references are made of.
_PIECES = [*'#GH-/:.`~&;0123456789 abcfixesrvt\n"<>!-()[]', "https://github.com/o/r/pull/", 'Revert "', "```"]
ref_text = st.lists(st.sampled_from(_PIECES), max_size=80).map("".join) | st.text(max_size=300)


@settings(max_examples=300, deadline=None)
@given(ref_text, st.booleans())
def test_any_text_gives_valid_references(text: str, is_subject: bool) -> None:
    for ref in references_in_text(text, "o/r", "title", is_subject):
        assert ref.number >= 1
        assert ref.relation in RELATIONS
        assert len(ref.evidence) <= 170
        assert "/" in ref.repository


@settings(max_examples=100, deadline=None)
@given(ref_text, ref_text, st.lists(st.integers(min_value=-5, max_value=10**6), max_size=3))
def test_whole_record_never_crashes_and_never_self_references(title: str, body: str, closing: list[int]) -> None:
    pr = PullRequest(repository="o/r", number=7, title=title, body=body, closing_issues=closing)
    facts = extract_references(pr)
    keys = [(r.repository.lower(), r.number) for r in facts.references]
    assert len(keys) == len(set(keys))
    assert ("o/r", 7) not in keys
    assert all(r.number >= 1 and r.relation in RELATIONS for r in facts.references)


@given(st.text(max_size=200))
def test_masking_keeps_length_and_lines(text: str) -> None:
    masked = mask_code_and_markup(text)
    assert len(masked) == len(text)
    assert masked.count("\n") == text.count("\n")


@given(st.text(max_size=200), st.integers(min_value=0, max_value=200))
def test_sentence_around_is_bounded(text: str, start: int) -> None:
    start = min(start, len(text))
    assert len(sentence_around(text, start, min(len(text), start + 3))) <= 162


def test_many_references_in_one_long_sentence_stay_fast() -> None:
    import time

    text = "#1 fixes " * 5000 + "owner/repo#2 " * 2000
    started = time.perf_counter()
    refs = references_in_text(text, "o/r")
    assert len(refs) == 7000
    assert time.perf_counter() - started < 10  # quadratic scans took minutes here
