"""Untrusted markdown to safe HTML: markdown-it with raw HTML off, then nh3.

Two layers on purpose: markdown-it escapes any HTML in the source and refuses
``javascript:``-style links; nh3 then removes whatever a parser bug might still let
through (event handlers, unknown tags, unsafe URL schemes). Code blocks are highlighted
server-side by pygments with CSS classes (no inline styles: the CSP forbids them).
"""

from __future__ import annotations

from functools import lru_cache

import nh3
from markdown_it import MarkdownIt
from markupsafe import Markup
from pygments import highlight  # type: ignore[import-untyped]
from pygments.formatters import HtmlFormatter  # type: ignore[import-untyped]
from pygments.lexer import Lexer  # type: ignore[import-untyped]
from pygments.lexers import TextLexer, get_lexer_by_name  # type: ignore[import-untyped]
from pygments.util import ClassNotFound  # type: ignore[import-untyped]

SAFE_URL_SCHEMES = {"http", "https", "mailto"}
_ALLOWED_TAGS = {
    "a", "p", "br", "hr", "em", "strong", "del", "code", "pre", "span", "div", "blockquote",
    "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip
_ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "span": {"class"},
    "div": {"class"},
    "pre": {"class"},
    "code": {"class"},
    "ol": {"start"},
    "th": {"align"},
    "td": {"align"},
}
_FORMATTER = HtmlFormatter(nowrap=True)
# Long excerpts are cut for highlighting; the rest is still shown, as plain escaped text.
_MAX_HIGHLIGHT_CHARS = 20_000


@lru_cache(maxsize=64)
def _lexer(language: str) -> Lexer:
    try:
        return get_lexer_by_name(language, stripnl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False)


def highlight_code(code: str, language: str | None) -> str:
    """Highlighted HTML spans for `code` (escaped), without the surrounding <pre>."""
    lexer = _lexer((language or "text").strip().lower()[:40] or "text")
    return str(highlight(code[:_MAX_HIGHLIGHT_CHARS], lexer, _FORMATTER)) + (
        str(Markup.escape(code[_MAX_HIGHLIGHT_CHARS:])) if len(code) > _MAX_HIGHLIGHT_CHARS else ""
    )


def _highlight_fence(code: str, language: str, _attrs: str) -> str:
    body = highlight_code(code, language or None)
    return f'<pre class="highlight"><code>{body}</code></pre>'


def _parser() -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": False, "highlight": _highlight_fence})
    parser.enable(["table", "strikethrough"])
    return parser


_MARKDOWN = _parser()


def sanitize_html(html: str) -> Markup:
    """Keep only a small safe subset of HTML."""
    cleaned = nh3.clean(
        html,
        tags=_ALLOWED_TAGS,
        attributes=_ALLOWED_ATTRIBUTES,
        url_schemes=SAFE_URL_SCHEMES,
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )
    return Markup(cleaned)


def render_markdown(text: str) -> Markup:
    """Markdown from anywhere (PR bodies, reports) as sanitized HTML."""
    return sanitize_html(_MARKDOWN.render(text))
