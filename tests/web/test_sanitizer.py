"""The report HTML the web shows (render's one HTML path) stays inert, and the Accept-header
parser: examples and properties."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from hypothesis import given
from hypothesis import strategies as st

from prdigest.models.report import (
    Discussion,
    Header,
    Highlight,
    Impact,
    KeyExcerpt,
    KeyFile,
    KeySymbol,
    NarratorInfo,
    RelatedItem,
    Report,
    RisksAndImpact,
    RiskTagItem,
    Step,
    Summary,
    ThreadLine,
    Verdict,
)
from prdigest.render.html import render_report_body_html, render_report_html
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
        assert name in {"href", "title", "class", "rel", "id", "data-schema-version"}, name
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


def hostile_report(text: str, url: str | None = None) -> Report:
    """A report with `text` in every kind of place the HTML path writes untrusted text."""
    return Report(
        lang="en",
        length="full",
        header=Header(repository="o/r", number=1, title=text, state="open", state_label="Open", author=text, url=url),
        summary=Summary(one_line=text, recommendation=text),
        motivation=text,
        implementation=[Step(title=text, detail=text)],
        key_files=[KeyFile(path=text, module=text, module_label=text, category=text, type=text, role=text)],
        key_symbols=[KeySymbol(name=text, path=text, kind="function", change="added")],
        key_code=[KeyExcerpt(path=text, role=text, note=text, text=text)],
        discussion=Discussion(
            overview=text,
            highlights=[Highlight(topic=text, who=text, summary=text)],
            threads=[ThreadLine(topic=text, kind=text, kind_label=text, outcome=text, outcome_label=text, note=text)],
        ),
        risks=RisksAndImpact(
            risks=[text], impact=Impact(users=text), tags=[RiskTagItem(tag=text, label=text, evidence=text)]
        ),
        related=[RelatedItem(repository="o/r", number=2, title=text, relation=text, relation_label=text, note=text)],
        verdict=Verdict(level="skip", label=text),
        narrator=NarratorInfo(narrator="llm", model=text),
    )


def body(text: str, url: str | None = None) -> str:
    """The report's HTML as the web's report page shows it (render's one HTML path)."""
    return str(render_report_body_html(hostile_report(text, url)))


def test_report_body_keeps_markup_as_text() -> None:
    html = body("<script>alert(1)</script> and `code` <img src=x onerror=alert(1)>")
    assert_inert(html)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<code>code</code>" in html


def test_script_links_are_not_links() -> None:
    for url in (
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        " javascript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD4=",
    ):
        html = body("x", url)
        assert_inert(html)
        assert "href" not in html, url
    assert 'href="https://example.com/pull/1"' in body("x", "https://example.com/pull/1")


def test_the_web_shows_the_html_publish_writes() -> None:
    report = hostile_report("<b>x</b> `y`", "https://example.com/pull/1")
    article = str(render_report_body_html(report))
    page = render_report_html(report)
    # The standalone page adds only its heading and title line to the same article.
    kept = [line for line in page.splitlines() if "<h1>" not in line and 'class="title"' not in line]
    assert article.strip() in "\n".join(kept)


@given(st.text(max_size=300))
def test_any_text_renders_inert(source: str) -> None:
    assert_inert(body(source))


@given(st.lists(st.sampled_from(["<", ">", "script", "javascript:", "[a](", ")", "on", "=", '"', "`", "&#", "\n"])))
def test_hostile_fragments_render_inert(parts: list[str]) -> None:
    assert_inert(body("".join(parts)))


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
