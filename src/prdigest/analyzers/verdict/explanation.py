"""Whether the PR's own description explains the change: prose of some length that names
code the diff changes (a changed definition, a changed file).

Read by structure, not by wording: the author's paragraphs (templates, checklists, bot
sections and code blocks already left out by `pr_text`), lists and tables aside, counted in
words; and the names of the definitions and files the diff changes (from the syntax trees,
`SymbolsFacts`) looked up among the words. A body that talks about the code it changes at
length is where a reader finds the why: the problem, its cause, the fix.
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
_LIST_OR_TABLE = ("*", "-", "+", "|", ">")


@dataclass(frozen=True)
class Explanation:
    words: int
    names: tuple[str, ...]  # changed definitions or files the prose names, first seen first


def explanation(pr: PullRequest, symbols: SymbolsFacts) -> Explanation | None:
    """The description's explanation, None when it is short or names none of the code."""
    prose = [
        paragraph
        for paragraph in author_paragraphs(pr.body, pr.repository)
        if not paragraph.lstrip().startswith(_LIST_OR_TABLE)
    ]
    words = sum(len(paragraph.split()) for paragraph in prose)
    if words < MIN_WORDS:
        return None
    changed = {_short(s.name) for s in symbols.symbols} | {_stem(c.path) for c in pr.files}
    changed = {name for name in changed if len(name) >= MIN_NAME_CHARS}
    named = [token for token in dict.fromkeys(_WORD.findall(" ".join(prose))) if token in changed]
    return Explanation(words=words, names=tuple(named)) if named else None


def _short(name: str) -> str:
    return re.split(r"\.|::", name)[-1]


def _stem(path: str) -> str:
    return posixpath.splitext(posixpath.basename(path))[0]
