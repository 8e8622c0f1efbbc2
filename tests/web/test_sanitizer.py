"""Markdown → safe HTML, and the Accept-header parser: examples and properties."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from hypothesis import given
from hypothesis import strategies as st

from prdigest.web.markdown import highlight_code, render_markdown
from prdigest.web.negotiation import parse_accept, prefers_json


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs += [(name, value or "") for name, value in attrs]


def parsed(html: str) -> _Tags:
    parser = _Tags()
    parser.feed(html)
    return parser


def assert_inert(html: str) -> None:
    found = parsed(html)
    assert not {"script", "img", "iframe", "svg", "style", "object", "form", "input"} & set(found.tags)
    for name, value in found.attrs:
        assert not name.startswith("on"), (name, value)
        assert name in {"href", "title", "class", "start", "align", "rel"}, name
        if name == "href":
            scheme = _scheme(value)
            assert scheme is None or scheme in {"http", "https", "mailto"}, value


_C0_AND_SPACE = "".join(map(chr, range(0x21)))


def _scheme(url: str) -> str | None:
    """The scheme a browser would see (WHATWG URL parsing), or None for a relative URL.

    Browsers drop leading/trailing C0 controls and spaces and every tab/newline first; a
    scheme is then a letter followed by letters, digits, ``+ - .`` up to the first ``:``.
    """
    cleaned = re.sub("[\t\n\r]", "", url.strip(_C0_AND_SPACE))
    found = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", cleaned)
    return found.group(1).lower() if found else None


def test_markdown_renders_formatting() -> None:
    html = str(render_markdown("**bold** and `code`\n\n- item\n\n[site](https://example.com)"))
    assert "<strong>bold</strong>" in html
    assert "<code>code</code>" in html
    assert "<li>item</li>" in html
    assert 'href="https://example.com"' in html
    assert 'rel="noopener noreferrer nofollow"' in html


def test_raw_html_and_script_links_are_inert() -> None:
    source = (
        "<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1))\n\n"
        "[y](JaVaScRiPt:alert(1))\n\n[z](&#106;avascript:alert(1))\n\n<a href='javascript:alert(1)'>a</a>"
        "\n\n[d](data:text/html;base64,PHNjcmlwdD4=)\n\n<div onclick=alert(1)>d</div>"
    )
    html = str(render_markdown(source))
    assert_inert(html)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_code_fences_are_highlighted_with_classes_only() -> None:
    html = str(render_markdown("```python\ndef f(x):\n    return '<b>'\n```"))
    assert '<pre class="highlight"><code>' in html
    assert '<span class="k">def</span>' in html
    assert "&lt;b&gt;" in html
    assert "style=" not in html


def test_unknown_language_is_plain_escaped_text() -> None:
    assert highlight_code("<x>", "no-such-lang") == "&lt;x&gt;\n"


@given(st.text(max_size=300))
def test_any_markdown_renders_inert(source: str) -> None:
    assert_inert(str(render_markdown(source)))


@given(st.lists(st.sampled_from(["<", ">", "script", "javascript:", "[a](", ")", "on", "=", '"', "`", "&#", "\n"])))
def test_hostile_fragments_render_inert(parts: list[str]) -> None:
    assert_inert(str(render_markdown("".join(parts))))


def test_accept_header_preferences() -> None:
    assert prefers_json("application/json")
    assert prefers_json("application/json, text/html;q=0.5")
    assert not prefers_json("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
    assert not prefers_json("*/*")
    assert not prefers_json(None)
    assert not prefers_json("application/json;q=0, text/html")
    assert parse_accept("text/html;q=abc, nonsense, APPLICATION/JSON;q=2") == {
        "text/html": 0.0,
        "application/json": 0.0,
    }


@given(st.text(max_size=200))
def test_any_accept_header_parses(header: str) -> None:
    qualities = parse_accept(header)
    assert all(0.0 <= q <= 1.0 for q in qualities.values())
    assert isinstance(prefers_json(header), bool)
