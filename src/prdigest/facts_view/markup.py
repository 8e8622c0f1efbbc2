"""The one piece of markup in text built from facts: code spans.

Evidence sentences and narrator prose name paths, symbols and versions as backtick code
spans; every renderer understands them (Markdown as is, HTML as ``<code>``, Atom as text).
"""

from __future__ import annotations

import re

_BACKTICKS = re.compile(r"`+")


def code(text: str) -> str:
    """A code span for any text: the delimiter is longer than any backtick run inside."""
    text = " ".join(text.split())
    longest = max((len(m) for m in _BACKTICKS.findall(text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"
