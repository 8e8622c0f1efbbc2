"""Untrusted text on its way to a terminal or a published document.

PR titles, bodies, paths and commit messages may hold control characters: ESC sequences
that clear the screen, retitle the window or hide text, a bare CR that overwrites a line,
NUL and friends that XML cannot carry at all. No output format (terminal, Markdown, HTML,
JSON, Atom) has a use for them, so every control character except tab and newline becomes
U+FFFD: the reader sees that something was there and nothing acts on it.
"""

from __future__ import annotations

import re

# C0 except TAB and LF, DEL, and C1 (which some terminals act on too); lone surrogates
# (a JSON "\ud800" escape decodes to one) cannot even be written out as UTF-8.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def printable(text: str) -> str:
    """``text`` with CRLF as LF and every other control character (bar tab, LF) and every
    lone surrogate as U+FFFD."""
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub("\ufffd", text.replace("\r\n", "\n"))


def printable_values(value: object) -> object:
    """`value` with `printable` applied to every string in it, through lists, tuples and dicts.

    For model validators: a field holding a string, a list of strings or nested raw data."""
    if isinstance(value, str):
        # `printable`, its test inline: models call this for each of their many strings.
        return value if _CONTROL.search(value) is None else printable(value)
    if isinstance(value, list):
        return [printable_values(item) for item in value]
    if isinstance(value, tuple):
        return tuple(printable_values(item) for item in value)
    if isinstance(value, dict):
        return {key: printable_values(item) for key, item in value.items()}
    return value
