"""Short, one-line renderings of untrusted text for evidence strings, and the lines they are cut from."""

from __future__ import annotations

from collections.abc import Iterable


def clip(text: str, limit: int = 100) -> str:
    """Whitespace folded to single spaces, cut to ``limit`` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def up_to_closing_bracket(lines: Iterable[str], limit: int = 12) -> list[str]:
    """The first of `lines` and those after it up to the one that closes the brackets it
    opens (a statement wrapped over lines), at most `limit`."""
    taken: list[str] = []
    depth = 0
    for line in lines:
        taken.append(line)
        depth += sum(line.count(c) for c in "([{") - sum(line.count(c) for c in ")]}")
        if depth <= 0 or len(taken) >= limit:
            break
    return taken
