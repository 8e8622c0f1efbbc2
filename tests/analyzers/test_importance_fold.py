"""A file's mention is searched in the lowered PR text first, where that cannot miss one."""

from __future__ import annotations

import pytest

from prdigest.analyzers.importance import fold, mentioned_in


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("httpx/_client.py", "Fix a bug in HTTPX/_CLIENT.PY"),
        ("httpx/_client.py", "see _client.py and more"),
        ("src/kelvin_scale.py", "the \u212aelvin_scale module"),  # Kelvin sign ~ k ignoring case
        ("src/kelvin_scale.py", "the kelvin_scale module"),
        ("pkg/ssl_utils.py", "\u017f\u017fl_utils changed"),  # long s ~ s ignoring case
        ("pkg/inline.py", "\u0130NLINE.py and \u0131nline"),  # dotted and dotless i
        ("pkg/inline.py", "nothing about it"),
        ("docs/\u00e9t\u00e9.md", "\u00c9T\u00c9.md is new"),  # a non-ASCII needle: always searched
        ("a/b.py", "b.pyc is not b.py-like"),
    ],
)
def test_folded_search_finds_what_the_pattern_finds(path: str, text: str) -> None:
    assert mentioned_in(path, text, fold(text)) == mentioned_in(path, text)


def test_texts_ignoring_case_folds_apart_are_not_folded() -> None:
    assert fold("Readme \u212a") is None
    assert fold("\u017f") is None
    assert fold("ABC d\u00e9j\u00e0") == "abc d\u00e9j\u00e0"
    assert mentioned_in("src/kelvin_scale.py", "the \u212aelvin_scale module")
