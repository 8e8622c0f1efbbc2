"""The parts of a squash body that another PR wrote.

GitHub's squash message lists the branch's commits as ``* subject`` blocks, each followed by
that commit's own body, and ends with a ``---------`` line and the trailers. When the branch
took in commits of other PRs (merged from main, stacked on another branch), their blocks
carry those PRs' subjects, ``* Fix incorrect import path (#784)``, and bodies, ``Fixes
#766``: what they say is those PRs' relations, not this one's. A block whose subject ends
with another number than the PR's own is such a part; the rest of the text is the PR's.
"""

from __future__ import annotations

import re

_BLOCK_SUBJECT = re.compile(r"^\* [^\n]*?\(#(?P<number>\d{1,9})\)[ \t]*$", re.M)
# Where a block ends: the next commit's block or the separator before the trailers.
_BLOCK_END = re.compile(r"^(?:\* |-{3,}[ \t]*$)", re.M)


def foreign_blocks(text: str, own_number: int | None) -> list[tuple[int, int]]:
    """Spans of the commit blocks whose subject names another PR than ``own_number``."""
    spans: list[tuple[int, int]] = []
    for match in _BLOCK_SUBJECT.finditer(text):
        if own_number is not None and int(match.group("number")) == own_number:
            continue
        end = _BLOCK_END.search(text, match.end())
        spans.append((match.start(), end.start() if end else len(text)))
    return spans


def mask_foreign_blocks(text: str, own_number: int | None) -> str:
    """``text`` with other PRs' blocks blanked (offsets kept: newlines stay)."""
    spans = foreign_blocks(text, own_number)
    if not spans:
        return text
    pieces: list[str] = []
    last = 0
    for start, end in spans:
        pieces.append(text[last:start])
        pieces.append(re.sub(r"[^\n]", " ", text[start:end]))
        last = end
    pieces.append(text[last:])
    return "".join(pieces)
