"""`printable`: what is done to untrusted text before a terminal or a document sees it."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from prdigest.text import printable

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@given(st.text(alphabet=st.characters(exclude_categories=[])))  # surrogates included
def test_no_control_character_survives(text: str) -> None:
    out = printable(text)
    assert not CONTROL.search(out)
    out.encode("utf-8")  # lone surrogates are gone too
    # One character in, at most one out: nothing is hidden by being dropped silently.
    assert len(out) == len(text) - text.count("\r\n")


@given(st.text(alphabet=st.characters(exclude_categories=["Cc", "Cs"]) | st.sampled_from("\t\n")))
def test_text_without_controls_is_unchanged(text: str) -> None:
    assert printable(text) == text


def test_sequences_become_visible_placeholders() -> None:
    assert printable("a\x1b]0;x\x07b\r\nc\rd") == "a\ufffd]0;x\ufffdb\nc\ufffdd"


def test_lone_surrogates_become_placeholders_so_text_can_be_written() -> None:
    out = printable("a\ud800b\udfffc")
    assert out == "a\ufffdb\ufffdc"
    out.encode("utf-8")
