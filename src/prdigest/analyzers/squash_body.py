"""The parts of a squash body that another PR wrote.

GitHub's squash message lists the branch's commits as ``* subject`` blocks, each followed by
that commit's own body, and ends with a ``---------`` line and the trailers. When the branch
took in commits of other PRs (merged from main, stacked on another branch), their blocks
carry those PRs' subjects, ``* Fix incorrect import path (#784)``, and bodies, ``Fixes
#766``: what they say is those PRs' relations, not this one's. A block whose subject ends
with another number than the PR's own is such a part; the rest of the text is the PR's.
A block whose subject is the PR's own title is the PR's own commit whatever number it ends
with (GitHub takes a one-commit branch's subject as the title; the number its author wrote
there is the issue it is for): it stays the PR's, and `own_subjects` gives its subject.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

# Bodies written on Windows end their lines with "\r\n": the "\r" is part of no subject.
_BLOCK_SUBJECT = re.compile(r"^\* [^\n]*?\(#(?P<number>\d{1,9})\)[ \t\r]*$", re.M)
# Where a block ends: the next commit's block or the separator before the trailers.
_BLOCK_END = re.compile(r"^(?:\* |-{3,}[ \t\r]*$)", re.M)


_TRAILING_NUMBER = re.compile(r"\s*\(\s*#\d{1,9}\s*\)\s*$")
_TRUNCATED = "\u2026"  # git hosts cut a long squash subject with an ellipsis
_SPACES = re.compile(r"\s+")
_DIGITS = re.compile(r"\d+")
_SAME_SUBJECT = 0.95  # similarity (difflib's ratio) of a title and the subject it was written from


# "fix(time): binding …" titles the branch whose commit says "fix: binding …": the type and
# area a maintainer puts before a subject do not make it another.
_CONVENTIONAL_HEAD = re.compile(r"^\s*[A-Za-z]+(?:\([^)\n]*\))?!?:\s*")


def _plain(subject: str) -> str:
    bare = _CONVENTIONAL_HEAD.sub("", _TRAILING_NUMBER.sub("", subject.strip()))
    return _SPACES.sub(" ", bare).strip().casefold()


def is_own_subject(subject: str, title: str | None) -> bool:
    """Whether a block's subject is the PR's title (its number aside; a title cut short with
    an ellipsis matches the subject it was cut from)."""
    if not title:
        return False
    mine, theirs = _plain(title), _plain(subject)
    if mine.endswith(_TRUNCATED):
        head = mine.removesuffix(_TRUNCATED).rstrip()
        # Cut inside the number itself ("… (#1…"): compare what stands before it.
        head = re.sub(r"\s*\(\s*#?\d*$", "", head)
        return len(head) >= 20 and theirs.startswith(head)
    if mine == theirs:
        return True
    # A typo mended in the title ("eep" → "keep") leaves it the same subject; another number
    # ("to 1.2.4" / "to 1.2.5") makes it another.
    if _DIGITS.findall(mine) != _DIGITS.findall(theirs):
        return False
    return SequenceMatcher(None, mine, theirs, autojunk=False).ratio() >= _SAME_SUBJECT


def own_subjects(text: str, title: str | None) -> list[str]:
    """Subjects of the blocks that are the PR's own commit (see `is_own_subject`)."""
    subjects = (match.group(0)[2:].strip() for match in _BLOCK_SUBJECT.finditer(text))
    return [subject for subject in subjects if is_own_subject(subject, title)]


def foreign_blocks(text: str, own_number: int | None, title: str | None = None) -> list[tuple[int, int]]:
    """Spans of the commit blocks whose subject names another PR than ``own_number``."""
    spans: list[tuple[int, int]] = []
    for match in _BLOCK_SUBJECT.finditer(text):
        if own_number is not None and int(match.group("number")) == own_number:
            continue
        if is_own_subject(match.group(0)[2:], title):
            continue
        end = _BLOCK_END.search(text, match.end())
        spans.append((match.start(), end.start() if end else len(text)))
    return spans


def mask_foreign_blocks(text: str, own_number: int | None, title: str | None = None) -> str:
    """``text`` with other PRs' blocks blanked (offsets kept: newlines stay)."""
    spans = foreign_blocks(text, own_number, title)
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
