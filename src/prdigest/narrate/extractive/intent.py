"""The PR's intent in its author's words: its title without the bookkeeping around it (tags,
a Conventional Commits type and scope, a leading emoji, the squash suffix ``(#N)``).

The one-liner leads with it when the title is written in the reader's language: the title
says what the author meant ("Set `click` lower bound to 8.0.0"), the facts after it say what
the change does; neither alone states the purpose.
"""

from __future__ import annotations

import re

from prdigest.narrate.extractive.text import clean_title, is_generated_subject

# "fix(render)!: …", "chore(deps): …": the type is the kind, which the facts' clause says again.
# An area ("windows: …", "route.md: …") is kept: the facts may not name it.
_CONVENTIONAL_TYPE = re.compile(
    r"^(?:feat|feature|fix|bugfix|hotfix|docs?|chore|refactor|perf|tests?|build|ci|style|revert|deps|security)"
    r"(?:\([^)]{0,40}\))?!?\s*:\s*(?=\S)",
    re.IGNORECASE,
)
# Emoji (gitmoji) and punctuation before the first word; a quote or code span is kept.
_LEADING_SYMBOLS = re.compile(r"^[^\w`'\"(\[]+")
_SQUASH_SUFFIX = re.compile(r"\s*\(#\d+\)\s*$")
_WORD = re.compile(r"[^\W\d_]{2,}")  # a word of letters: "v1.2" has none
_IDEOGRAPH = re.compile(r"[\u4e00-\u9fff]")
MIN_WORDS = 2  # "Update", "wip", "fixes": a word alone states no intent
MIN_IDEOGRAPHS = 4
MAX_LENGTH = 160


def title_intent(title: str) -> str | None:
    """The title's statement of intent, its first word capitalized, or None when it states none (a
    single word, a subject GitHub wrote itself such as "Update a.py")."""
    text = _SQUASH_SUFFIX.sub("", clean_title(title))
    text = _CONVENTIONAL_TYPE.sub("", _LEADING_SYMBOLS.sub("", text)).strip().rstrip(".。")
    worded = len(_WORD.findall(text)) >= MIN_WORDS or len(_IDEOGRAPH.findall(text)) >= MIN_IDEOGRAPHS
    if not worded or len(text) > MAX_LENGTH or is_generated_subject(text):
        return None
    first = re.split(r"[\s:,]", text, maxsplit=1)[0]
    # "add x" → "Add x"; a name ("route.md", "iOS", "`f`") keeps its spelling.
    return text[:1].upper() + text[1:] if first.isalpha() and first.islower() else text


def lower_first(text: str) -> str:
    """``Changes `f` …`` → ``changes `f` …``, so it follows a colon; a word in capitals
    (``CI``, ``README``) keeps its case."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text
