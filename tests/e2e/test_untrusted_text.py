"""PR titles, bodies and commit messages are untrusted: HTML and Markdown payloads synced from
a real git history come out of ``report`` and ``feed`` inert in HTML, Markdown and Atom."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from tests.e2e.driver import Cli
from tests.e2e.repos import ESC_PR, ESC_REPO, ESC_TITLE, XSS_IMG, XSS_PR, XSS_REPO, XSS_SCRIPT, XSS_TITLE

XSS = f"{XSS_REPO}#{XSS_PR}"


class _Elements(HTMLParser):
    """Every start tag with its attributes, as a browser's tokenizer would see them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {name: value or "" for name, value in attrs}))

    handle_startendtag = handle_starttag

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _assert_inert_html(html: str) -> None:
    parser = _Elements()
    parser.feed(html)
    parser.close()
    names = [tag for tag, _ in parser.tags]
    assert "script" not in names
    assert "img" not in names
    for tag, attrs in parser.tags:
        handlers = [name for name in attrs if name.startswith("on")]
        assert not handlers, (tag, attrs)
        for name in ("href", "src", "action", "formaction"):
            value = attrs.get(name, "").strip().lower()
            assert not value.startswith(("javascript:", "data:", "vbscript:")), (tag, attrs)
    # The payload is still shown to the reader, as text.
    assert XSS_SCRIPT in "".join(parser.text)


@pytest.mark.parametrize(("lang", "length"), [("zh", "full"), ("en", "brief")])
def test_report_html_shows_payloads_as_text(run_cli: Cli, xss_db: Path, lang: str, length: str) -> None:
    html = run_cli(
        "report", XSS, "--format", "html", "--lang", lang, "--length", length, "--no-llm", "--db", xss_db
    ).stdout
    assert html.lstrip().lower().startswith("<!doctype html>")
    _assert_inert_html(html)
    assert XSS_IMG not in html  # never raw


def test_feed_html_and_atom_show_payloads_as_text(run_cli: Cli, xss_db: Path) -> None:
    html = run_cli("feed", XSS_REPO, "--format", "html", "--no-llm", "--db", xss_db).stdout
    _assert_inert_html(html)
    atom = run_cli("feed", XSS_REPO, "--format", "atom", "--no-llm", "--db", xss_db).stdout
    root = ET.fromstring(atom)  # well-formed despite the payload
    titles = [el.text for el in root.iter("{http://www.w3.org/2005/Atom}title")]
    assert XSS_TITLE in titles
    for element in root.iter():
        if element.get("type") in ("html", "xhtml"):
            _assert_inert_html(element.text or "")


def test_markdown_payload_makes_no_link_and_no_html(run_cli: Cli, xss_db: Path) -> None:
    md = run_cli("report", XSS, "--format", "md", "--no-llm", "--db", xss_db).stdout
    md += run_cli("feed", XSS_REPO, "--format", "md", "--no-llm", "--db", xss_db).stdout
    # A permissive renderer (raw HTML on, every link scheme accepted) shows what the text asks for.
    renderer = MarkdownIt("commonmark", {"html": True})
    renderer.validateLink = lambda url: True  # type: ignore[method-assign]
    tokens = renderer.parse(md)
    inline = [child for token in tokens if token.children for child in token.children]
    hrefs = [str(child.attrGet("href") or "") for child in inline if child.type == "link_open"]
    assert not [href for href in hrefs if "javascript" in href.lower()], hrefs
    raw_html = [t.content for t in [*tokens, *inline] if t.type in ("html_inline", "html_block")]
    assert not [chunk for chunk in raw_html if any(word in chunk.lower() for word in ("<script", "<img", "<a "))]
    # Code excerpts may quote the payload, but only inside fences.
    rendered = renderer.render(md)
    _assert_no_live_payload(rendered)


def _assert_no_live_payload(rendered_html: str) -> None:
    parser = _Elements()
    parser.feed(rendered_html)
    parser.close()
    assert [tag for tag, _ in parser.tags if tag in ("script", "img")] == []
    for _tag, attrs in parser.tags:
        assert not attrs.get("href", "").lower().startswith("javascript:")
        assert not [name for name in attrs if name.startswith("on")]


CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
ESC = f"{ESC_REPO}#{ESC_PR}"


@pytest.mark.parametrize(
    "args",
    [
        ("list",),
        ("show", ESC),
        ("facts", ESC),
        ("report", ESC, "--no-llm"),
        ("report", ESC, "--lang", "en", "--format", "html", "--no-llm"),
        ("feed", ESC_REPO, "--no-llm"),
        ("feed", ESC_REPO, "--format", "atom", "--no-llm"),
    ],
)
def test_terminal_control_sequences_are_not_replayed(run_cli: Cli, esc_db: Path, args: tuple[str, ...]) -> None:
    out = run_cli(*args, "--db", esc_db).stdout
    assert not CONTROL.findall(out), CONTROL.findall(out)
    if args[0] != "facts":  # facts quote no title; everything else still shows the text
        assert "pwned" in out


def test_show_json_keeps_the_exact_text_escaped(run_cli: Cli, esc_db: Path) -> None:
    data = json.loads(run_cli("show", ESC, "--json", "--db", esc_db).stdout)
    assert data["title"] == ESC_TITLE  # stored and exported exactly, as JSON escapes
    assert "\x1b" not in run_cli("show", ESC, "--json", "--db", esc_db).stdout


def test_published_files_hold_no_control_characters(run_cli: Cli, esc_db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    run_cli("publish", ESC_REPO, "--out", site, "--no-llm", "--db", esc_db)
    dirty = [str(p.relative_to(site)) for p in site.rglob("*") if p.is_file() and CONTROL.search(p.read_text("utf-8"))]
    assert dirty == []
    # The text is still shown (as placeholders where the controls were), and Atom stays well-formed.
    assert "pwned" in (site / "index.md").read_text("utf-8")
    for atom in site.glob("feed.*.atom.xml"):
        titles = [el.text or "" for el in ET.parse(atom).getroot().iter("{http://www.w3.org/2005/Atom}title")]
        assert any("pwned" in title for title in titles), titles
