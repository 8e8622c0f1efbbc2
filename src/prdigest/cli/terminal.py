"""Untrusted text on its way to a terminal or a document file.

PR titles, bodies, paths and commit messages may hold control characters: ESC sequences
that clear the screen, retitle the window or hide text, a bare CR that overwrites a line.
click strips some CSI colour codes when stdout is not a terminal, but not OSC sequences,
and nothing at all on a terminal. Every control character except tab and newline becomes
U+FFFD, so the reader sees that something was there and nothing acts on it.
"""

from __future__ import annotations

import re

# C0 except TAB and LF, DEL, and C1 (which some terminals act on too).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` with CRLF as LF and every other control character (bar tab, LF) as U+FFFD."""
    return _CONTROL.sub("\ufffd", text.replace("\r\n", "\n"))
