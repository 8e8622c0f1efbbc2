"""Whether the PR's own description explains the change: prose of some length that names
code the diff changes (a changed definition, a changed file), written as code (in backticks,
or shaped as an identifier: ``snake_case``, ``camelCase``).

Read by structure, not by wording: the author's paragraphs (templates, checklists, bot
sections and code blocks already left out by `pr_text`), counted in words; and the names
of the definitions and files the diff changes (from the syntax trees, `SymbolsFacts`) looked up
among the words. A body that talks about the code it changes at length is
where a reader finds the why: the problem, its cause, the fix.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from prdigest.analyzers.pr_text import author_paragraphs
from prdigest.models.facts import SymbolsFacts
from prdigest.models.pullrequest import PullRequest

MIN_WORDS = 40
MIN_NAME_CHARS = 4  # shorter names ("id", "run") are words of the prose as often as code
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
# Written as code: an underscore, a capital after the first letter or a digit. A plain
# lower-case word ("values", "nodes") is as often English as the definition of that name.
_CODE_SHAPED = re.compile(r"_|[a-z][A-Z]|[A-Za-z][0-9]")


@dataclass(frozen=True)
class Explanation:
    words: int
    names: tuple[str, ...]  # changed definitions or files the prose names, first seen first


def explanation(pr: PullRequest, symbols: SymbolsFacts) -> Explanation | None:
    """The description's explanation, None when it is short or names none of the code."""
    prose = author_paragraphs(pr.body, pr.repository)
    words = sum(len(paragraph.split()) for paragraph in prose)
    if words < MIN_WORDS:
        return None
    changed = {_short(s.name) for s in symbols.symbols} | {_stem(c.path) for c in pr.files}
    changed = {name for name in changed if len(name) >= MIN_NAME_CHARS}
    text = " ".join(prose)
    as_code = {token for span in _CODE_SPAN.findall(text) for token in _WORD.findall(span)}
    named = [
        token
        for token in dict.fromkeys(_WORD.findall(text))
        if token in changed and (token in as_code or _CODE_SHAPED.search(token))
    ]
    return Explanation(words=words, names=tuple(named)) if named else None


def _short(name: str) -> str:
    return re.split(r"\.|::", name)[-1]


def _stem(path: str) -> str:
    return posixpath.splitext(posixpath.basename(path))[0]
