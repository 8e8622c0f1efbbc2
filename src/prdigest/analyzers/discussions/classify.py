"""Thread kind from keywords (English and Chinese), and short topics/quotes from text.

Kinds are scored by keyword hits in the opening comment (replies count half); ties go
to the first kind in `_PRIORITY`. A comment opening with "nit" is style outright; a
question with no other signal is "question".
"""

from __future__ import annotations

import html
import re

from prdigest.analyzers.pr_text import shorten
from prdigest.models.facts import ThreadKind

_KEYWORDS: dict[ThreadKind, re.Pattern[str]] = {
    "correctness": re.compile(
        r"\bbugs?\b|\bwrong\b|\berrors?\b|\bcrash(?:es|ed)?\b|\bregress(?:ion|ions|ed)?\b|\b[A-Z]\w{0,60}Error\b|"
        r"\bshould (?:check|validate|handle|raise)\b|\brace(?: condition)?\b|\bdeadlock\b|\bincorrect\b|"
        r"\bbroken?\b|\bfails?\b|\bfailing\b|\bexception\b|\bedge case\b|\boff[- ]by[- ]one\b|\bleak\b|"
        r"\bundefined\b|\bsilently\b|\bcorrupt|\bunsafe\b|"
        r"错误|报错|崩溃|回归|异常|缺陷|竞态|死锁|不正确",
        re.I,
    ),
    "performance": re.compile(
        r"\bslow(?:er|down)?\b|\blatency\b|\bmemory\b|\bperf(?:ormance)?\b|\boverhead\b|\bthroughput\b|"
        r"\bspeed(?:up)?\b|\bfaster\b|\bhot ?path\b|\bbenchmark|\balloc(?:ation)?s?\b|\bcache\b|\bOOM\b|"
        r"\bVRAM\b|性能|延迟|内存|显存|开销|吞吐|热路径",
        re.I,
    ),
    "design": re.compile(
        r"\bwhy not\b|\binstead\b|\bshould we\b|\bapproach\b|\bmove (?:this |it )?to\b|\brefactor|"
        r"\bAPI\b|\babstraction\b|\binterface\b|\bdesign\b|\barchitecture\b|\bbase deps\b|"
        r"\bbetter (?:to|if|place)\b|\balternative(?:ly)?\b|\bgeneraliz|\bcoupl|\bscope\b|"
        r"设计|重构|接口|方案|抽象|为什么不|是否应该|放到",
        re.I,
    ),
    "style": re.compile(
        r"^\s*nit\b|\bnit:|\bnaming\b|\brename\b|\btypo\b|\bformat(?:ting)?\b|\bwhitespace\b|"
        r"\bdocstring\b|\blint\b|\bstyle\b|命名|拼写|格式|注释",
        re.I,
    ),
}
_PRIORITY: tuple[ThreadKind, ...] = ("correctness", "design", "performance", "style")
_QUESTION = re.compile(
    r"\?\s*$|？\s*$|\bcould you\b|\bcan you\b|\bwhy\b|\bwhat\b|\bhow\b|为什么|是否|吗[?？]?", re.I | re.M
)
_NIT = re.compile(r"^\s*(?:\*\*)?nit\b", re.I)


def classify_kind(first: str, replies: list[str] | None = None) -> ThreadKind:
    """The kind of a thread from its opening comment (and, weaker, its replies)."""
    text = clean_markup(first)
    if _NIT.match(text):
        return "style"
    scores: dict[ThreadKind, float] = {}
    for kind, pattern in _KEYWORDS.items():
        scores[kind] = float(len(pattern.findall(text)))
        for reply in replies or []:
            scores[kind] += 0.5 * len(pattern.findall(clean_markup(reply)))
    best = max(_PRIORITY, key=lambda kind: (scores[kind], -_PRIORITY.index(kind)))
    if scores[best] > 0:
        return best
    if _QUESTION.search(text):
        return "question"
    return "other"


# Bot badges (![medium](https://...priority.svg)), images, code blocks, HTML tags.
# A link target may hold one level of parentheses (`javascript:alert(1)`, wiki URLs); without
# that the target's closing ")" would be left behind in the prose.
_TARGET = r"\((?:[^()\s]|\([^()\s]{0,200}\)){0,1000}\)"
_IMAGE = re.compile(r"!\[[^\]\n]{0,300}\]" + _TARGET)
_FENCE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.S)
# A GitHub suggestion: a fenced block whose info string is "suggestion"; its content is the
# code the reviewer proposes for the commented lines (empty: delete them).
_SUGGESTION = re.compile(
    r"^[ \t]{0,3}(?P<fence>`{3,}|~{3,})[ \t]*suggestion\b[^\n]*\n(?P<code>.*?)^[ \t]{0,3}(?P=fence)[ \t]*$", re.M | re.S
)
_SUGGESTION_LINES = 6
# Closed script and style elements are code, not prose: their content goes with the tags
# (an unclosed `<script>` is usually prose naming the tag, so only the tag goes).
_SCRIPT = re.compile(r"<(script|style)\b[^>\n]{0,200}>.{0,2000}?</\1\s*>", re.I | re.S)
_HTML_TAG = re.compile(r"<[^>\n]{1,200}>")
_LINK = re.compile(r"\[([^\]\n]{0,300})\]" + _TARGET)
_QUOTE_LINE = re.compile(r"^\s*>.*$", re.M)
# Bold markers, backticks and heading hashes; single `_`/`*` stay (identifiers use them).
_MARKS = re.compile(r"\*\*|`|^\s{0,3}#{1,6}\s+", re.M)
_SPACES = re.compile(r"\s+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|[。！？]|\n")


def clean_markup(text: str, drop_quotes: bool = False) -> str:
    """Plain prose from Markdown: badges, images, code blocks and tags removed."""
    text = _FENCE.sub(" ", text)
    text = _SCRIPT.sub(" ", text)
    text = _IMAGE.sub(" ", text)
    text = _HTML_TAG.sub(" ", text)
    text = _LINK.sub(r"\1", text)
    if drop_quotes:
        text = _QUOTE_LINE.sub(" ", text)
    # Entities are how the text reads (`&amp;` is "&"); tags are gone before, so a decoded
    # `&lt;b&gt;` stays the literal text the author meant.
    return html.unescape(text)


def suggestion_of(text: str) -> str | None:
    """The code of the first GitHub suggestion block in a comment (its first lines), "" for a
    suggestion to delete the lines, None when the comment suggests nothing."""
    match = _SUGGESTION.search(text.replace("\r\n", "\n"))
    if match is None:
        return None
    lines = match.group("code").rstrip("\n").split("\n") if match.group("code").strip() else []
    shown = "\n".join(lines[:_SUGGESTION_LINES])
    return shown + ("\n…" if len(lines) > _SUGGESTION_LINES else "")


def topic_of(text: str, limit: int = 100) -> str:
    """The first sentence of a comment, as plain text, shortened."""
    plain = _MARKS.sub("", clean_markup(text, drop_quotes=True))
    for piece in _SENTENCE.split(plain):
        piece = piece.strip(" -*:\t")
        if len(re.findall(r"\w", piece)) >= 3:
            return shorten(piece, limit)
    suggestion = suggestion_of(text)
    if suggestion is not None:
        # A comment that is only a suggestion: its point is the code it proposes.
        first = next((line.strip() for line in suggestion.split("\n") if line.strip()), "")
        return shorten(first, limit) if first else "(suggests deleting the lines)"
    return shorten(plain, limit) or "(empty)"


def quote_of(text: str, limit: int = 200) -> str:
    """A short quote: the comment as plain prose, cut to `limit` characters."""
    return shorten(clean_markup(text, drop_quotes=True), limit)
