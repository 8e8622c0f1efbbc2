"""`printable`: what the CLI does to untrusted text before a terminal or a document sees it."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from prdigest.cli.terminal import printable

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@given(st.text())
def test_no_control_character_survives(text: str) -> None:
    out = printable(text)
    assert not CONTROL.search(out)
    # One character in, at most one out: nothing is hidden by being dropped silently.
    assert len(out) == len(text) - text.count("\r\n")


@given(st.text(alphabet=st.characters(exclude_categories=["Cc"]) | st.sampled_from("\t\n")))
def test_text_without_controls_is_unchanged(text: str) -> None:
    assert printable(text) == text


def test_sequences_become_visible_placeholders() -> None:
    assert printable("a\x1b]0;x\x07b\r\nc\rd") == "a\ufffd]0;x\ufffdb\nc\ufffdd"
