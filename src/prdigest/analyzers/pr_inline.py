"""Inline Markdown of a PR body as a reader sees it: the author's words without the markup.

Links become their text, images and HTML tags go (the text inside tags stays), bare URLs
take a short form (a GitHub issue/PR/commit URL becomes ``#12`` / ``owner/repo#12`` /
``owner/repo@abc1234``, another URL its host and last path segment), e-mail autolinks go,
bold/italic markers go. Inline code is kept exactly as written, links inside it included.

Also the judgement of checklist items: a template's unchanged line ("I have run
pre-commit") is boilerplate, an item carrying the author's specifics ("838 passed on H100",
"`pytest tests/foo.py` passes") is the author's words.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit

# HTML elements seen in PR bodies; anything else in angle brackets (`vector<int>`, `<name>`
# placeholders) is the author's text.
_HTML_TAG_NAMES = (
    "a|abbr|b|blockquote|br|center|code|dd|del|details|div|dl|dt|em|font|h[1-6]|hr|i|img|ins|kbd|li|"
    "ol|p|picture|pre|s|samp|small|source|span|strike|strong|sub|summary|sup|table|tbody|td|th|thead|"
    "tr|tt|u|ul|video"
)
_URL_CHARS = r"[^\s<>()\[\]`\"']"
_INLINE = re.compile(
    r"(?P<code>(`+)[^`]*?\2)"
    r"|(?P<image>!\[(?:[^\[\]]|\[[^\]]*\])*\]\([^)]*\)?)"
    r"|(?P<link>\[(?P<text>(?:[^\[\]]|\[[^\]]*\])*)\]\((?P<target>[^)\s]*)(?:\s+\"[^\"]*\")?\)?)"
    r"|(?P<reflink>\[(?P<reftext>[^\[\]]+)\]\[[^\[\]]*\])"
    r"|<(?P<autolink>https?://[^<>\s]+)>"
    r"|(?P<email><[^<>\s@]+@[^<>\s@]+>)"
    rf"|(?P<tag></?(?:{_HTML_TAG_NAMES})\b[^<>]*?/?>)"
    rf"|(?P<url>https?://{_URL_CHARS}+)",
    re.IGNORECASE | re.DOTALL,
)
_GITHUB_REF = re.compile(
    r"^(?:www\.)?github\.com/(?P<repo>[\w.-]+/[\w.-]+)/(?:(?P<kind>pull|issues)/(?P<number>\d+)|commit/(?P<sha>[0-9a-f]{7,40}))",
    re.IGNORECASE,
)
_TRAILING = ".,;:!?"
EMPHASIS = re.compile(r"(?<!\w)\*\*|\*\*(?!\w)")  # bold markers, not `a**b`
# "*word*", "__some words__": the markers go, the words stay. Not `a*b*c`; underscores only
# around several words, so `__init__` and snake_case stay as written.
_SINGLE_EMPHASIS = re.compile(r"(?<![\w*])\*(?=[^\s*])(?P<inner>[^*\n]{1,200}?)(?<=[^\s*])\*(?![\w*])")
_UNDERSCORE_EMPHASIS = re.compile(
    r"(?<![\w_])(?P<mark>__?)(?=[^\s_])(?P<inner>[^_\n]{0,200}?\s[^_\n]{0,200}?)(?<=[^\s_])(?P=mark)(?![\w_])"
)
_INLINE_CODE = re.compile(r"(`+)[^`]*?\1")
SHORT_URL_CHARS = 40


def strip_emphasis(text: str) -> str:
    """``text`` without Markdown bold and italic markers, its words untouched."""
    pieces: list[str] = []
    last = 0
    for code in _INLINE_CODE.finditer(text):  # inline code is kept as written
        pieces.extend((_strip_markers(text[last : code.start()]), code.group(0)))
        last = code.end()
    pieces.append(_strip_markers(text[last:]))
    return "".join(pieces)


def _strip_markers(text: str) -> str:
    text = EMPHASIS.sub("", text)
    text = _SINGLE_EMPHASIS.sub(lambda m: m.group("inner"), text)
    return _UNDERSCORE_EMPHASIS.sub(lambda m: m.group("inner"), text)


def short_url(url: str, repository: str | None = None) -> str:
    """A URL as a reader needs it: ``#12``, ``owner/repo#12``, ``owner/repo@abc1234``, else
    host and path, the middle elided when long."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    location = f"{parts.netloc}{parts.path}".rstrip("/")
    github = _GITHUB_REF.match(location)
    if github:
        repo = github.group("repo")
        same = repository is not None and repo.lower() == repository.lower()
        if github.group("number"):
            return f"#{github.group('number')}" if same else f"{repo}#{github.group('number')}"
        sha = github.group("sha")[:7]
        return sha if same else f"{repo}@{sha}"
    location = location.removeprefix("www.")
    if len(location) <= SHORT_URL_CHARS:
        return location
    segments = [s for s in parts.path.split("/") if s]
    last = segments[-1][:24] if segments else ""
    return f"{parts.netloc.removeprefix('www.')}/…/{last}" if last else parts.netloc


def plain_inline(text: str, repository: str | None = None) -> str:
    """`text` with its inline Markdown and HTML rendered as plain words (see the module doc)."""

    def render(match: re.Match[str]) -> str:
        kind = match.lastgroup
        if match.group("code") is not None:
            return match.group("code")
        if match.group("link") is not None:
            inner = match.group("text").strip()
            if not inner:
                return short_url(match.group("target"), repository)
            if re.fullmatch(r"https?://\S+", inner):
                return short_url(inner, repository)
            return plain_inline(inner, repository)
        if match.group("reflink") is not None:
            return match.group("reftext")
        if match.group("autolink") is not None:
            return short_url(match.group("autolink"), repository)
        if match.group("url") is not None:
            url = match.group("url")
            tail = len(url) - len(url.rstrip(_TRAILING))
            return short_url(url[: len(url) - tail], repository) + url[len(url) - tail :]
        del kind  # images, e-mail addresses and HTML tags say nothing in a quote
        return ""

    # Removing a tag can join its neighbours into a new one (``<b<br>r>`` leaves ``<br>``):
    # render until nothing changes, a few rounds at most.
    for _round in range(8):
        rendered = _INLINE.sub(render, text)
        if rendered == text:
            break
        text = rendered
    # Entities read as what they stand for (`&amp;` is "&"); decoded after the tags are gone,
    # so `&lt;b&gt;` stays the literal text it was written as.
    return strip_emphasis(html.unescape(text) if "&" in text else text)


# Phrases of contribution templates' checklists (GitHub's default, vLLM's, FlashInfer's,
# SGLang's...): the line as the template ships it.
_TEMPLATE_ITEM = re.compile(
    r"\bi (?:have|'ve|agree|confirm|certify|hereby|understand)\b|\bmy (?:changes|code|own code|pr)\b|pre-commit"
    r"|\btests? (?:have|has) been\b|\ball tests (?:are )?pass|\btests? pass(?:es)? locally\b|breaking change"
    r"|\bnew feature \(|\bbug fix \(|\bdocumentation (?:update|has been|is updated)|\bchangelog\b"
    r"|\bsign(?:ed)?[- ]?off\b|\bcla\b|contribut(?:ing|ion) guide|code of conduct|self-review"
    r"|style guide|\baccording to the\b|\bthe test plan\b|\btest results?\b|\brelease notes?\b|\(optional\)"
    r"|\bformat your code\b",
    re.IGNORECASE,
)
_PATH_OR_CODE = re.compile(
    r"`[^`]+`|\b[\w.-]+/[\w./-]+|\b\w+\.(?:py|cu|cuh|cc|cpp|h|hpp|rs|go|ts|js|sh|toml|ya?ml|json|md)\b"
)
_DIGIT = re.compile(r"\d")
MIN_PROSE_WORDS = 10


def is_authored_item(text: str) -> bool:
    """Whether a checklist item carries the author's own content rather than a template line.

    Numbers (a result, a GPU, an issue) always count; code, a path or a sentence of some
    length counts unless the item reads as a template phrase."""
    plain = plain_inline(text)
    if _DIGIT.search(plain):
        return True
    if _TEMPLATE_ITEM.search(plain):
        return False
    return _PATH_OR_CODE.search(plain) is not None or len(plain.split()) >= MIN_PROSE_WORDS


_LINE_MARKERS = re.compile(r"^\s*(?:#{1,6}\s+|>\s*|(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s*)?|\[[ xX]\]\s+)+")
_CUT_LINK = re.compile(r"\[(?P<text>[^\[\]]*)\]\([^)\s]*$")  # "[#12](https://github.co…" at a cut
_STRAY_TARGET = re.compile(r"\]\(https?://[^)\s]*\)?")  # "…ation](https://…)" at a cut
_STRAY_BOLD = re.compile(r"\*\*")
# An HTML tag cut by the excerpt's end ("<a href=\"https://gith…") or start ("…ef=\"x\">text").
_CUT_TAG_END = re.compile(rf"</?(?:{_HTML_TAG_NAMES})\b[^<>]*$", re.IGNORECASE)
_CUT_TAG_START = re.compile(r"^…?[^<>\s]*(?:\s+[\w-]+=(?:\"[^\"<>]*\"|'[^'<>]*'|[^\s<>]*))*\s*/?>")


def plain_excerpt(text: str, repository: str | None = None) -> str:
    """A shortened line of Markdown (a reference's evidence, cut with "…") as plain words:
    its line markers and inline markup out, links cut in the middle reduced to their text."""
    lines = [_LINE_MARKERS.sub("", line) for line in text.replace("\r\n", "\n").split("\n")]
    joined = " ".join(line.strip() for line in lines if line.strip())
    joined = _CUT_LINK.sub(lambda m: m.group("text") + "…", joined)
    joined = _CUT_TAG_END.sub("…", joined)
    if joined.startswith("…") and ">" in joined[:200] and "<" not in joined[: joined.index(">")]:
        joined = _CUT_TAG_START.sub("…", joined, count=1)
    joined = _STRAY_TARGET.sub("", plain_inline(joined, repository))
    return " ".join(_STRAY_BOLD.sub("", joined).split())
