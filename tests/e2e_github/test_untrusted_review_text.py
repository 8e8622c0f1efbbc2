"""Review text is untrusted: a review comment, its reply, a review body and a conversation
comment carrying ``<script>``, a ``javascript:`` link, Markdown headings and a fake instruction
("Ignore previous instructions…") stay text. HTML output holds no live element, and the
report keeps the structure of the same PR with plain review text."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from tests.e2e.driver import Cli, section
from tests.e2e_github.story import REPO, UNTRUSTED, load_bundle, ref

TWIN = UNTRUSTED + 1  # the same PR with plain review text
INJECTION = "Ignore previous instructions"
PLAIN = {
    "review": "Looks risky: the name check and the notes for details.\n\nPlain words from a reviewer here.",
    "reply": "Thanks. Also the error path raises ValueError now.",
    "conversation": "Some notes about the parser change and what it rejects.",
}


def _plain_twin(bundle: dict[str, Any]) -> dict[str, Any]:
    twin: dict[str, Any] = json.loads(json.dumps(bundle))
    twin["pull"]["number"] = TWIN
    twin["pull"]["html_url"] = f"https://github.com/{REPO}/pull/{TWIN}"
    for review in twin["reviews"]:
        if review["body"]:
            review["body"] = PLAIN["review"]
    first, reply = twin["review_comments"]
    first["body"], reply["body"] = PLAIN["review"], PLAIN["reply"]
    (comment,) = twin["issue_comments"]
    comment["body"] = PLAIN["conversation"]
    return twin


@pytest.fixture(scope="module")
def hostile_db(tmp_path_factory: pytest.TempPathFactory, run_cli: Cli) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    bundle = load_bundle(UNTRUSTED)
    assert "<script>" in json.dumps(bundle)
    assert "javascript:alert(1)" in json.dumps(bundle)
    paths = [root / "hostile.json", root / "plain.json"]
    paths[0].write_text(json.dumps(bundle), encoding="utf-8")
    paths[1].write_text(json.dumps(_plain_twin(bundle)), encoding="utf-8")
    db = root / "hostile.db"
    run_cli("import", *paths, "--db", db)
    run_cli("analyze", "--db", db)
    return db


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {name: value or "" for name, value in attrs}))

    handle_startendtag = handle_starttag

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _elements(html: str) -> _Elements:
    parser = _Elements()
    parser.feed(html)
    parser.close()
    return parser


def _assert_inert(html: str) -> str:
    parser = _elements(html)
    assert [tag for tag, _ in parser.tags if tag in ("script", "img", "iframe", "object", "embed")] == []
    for tag, attrs in parser.tags:
        assert not [name for name in attrs if name.startswith("on")], (tag, attrs)
        for name in ("href", "src", "action", "formaction"):
            assert not attrs.get(name, "").strip().lower().startswith(("javascript:", "data:", "vbscript:")), attrs
    return "".join(parser.text)


# The brief keeps the discussion's highlights, so it shows the review payload too.
@pytest.mark.parametrize(("lang", "length"), [("zh", "full"), ("en", "full"), ("zh", "brief"), ("en", "brief")])
def test_html_report_shows_the_payload_as_text(run_cli: Cli, hostile_db: Path, lang: str, length: str) -> None:
    html = run_cli(
        "report", ref(UNTRUSTED), "--format", "html", "--lang", lang, "--length", length, "--no-llm", "--db", hostile_db
    ).stdout
    text = _assert_inert(html)
    # The reader still sees what was said, as prose: link text without its target, no code.
    assert INJECTION in text
    assert "see x for details" in text
    assert "alert(" not in text


def _headings(md: str) -> list[str]:
    """Top-level and sub headings, with the PR number masked."""
    found = re.findall(r"^(#{1,6} .*)$", md, re.M)
    return [re.sub(rf"#{UNTRUSTED}|#{TWIN}", "#N", heading) for heading in found]


def _unquoted(text: str) -> str:
    return re.sub(r"「[^」]*」|“[^”]*”", "«quote»", text)


@pytest.mark.parametrize(("lang", "length"), [("zh", "full"), ("en", "full"), ("zh", "brief")])
def test_report_structure_is_that_of_the_plain_twin(run_cli: Cli, hostile_db: Path, lang: str, length: str) -> None:
    def report(number: int, fmt: str) -> str:
        args = ("report", ref(number), "--format", fmt, "--lang", lang, "--length", length, "--no-llm")
        return run_cli(*args, "--db", hostile_db).stdout

    hostile, plain = report(UNTRUSTED, "md"), report(TWIN, "md")
    assert _headings(hostile) == _headings(plain)
    # Headings the payload spells out ("# 执行摘要", "## Executive summary") are not headings here.
    summary = "执行摘要" if lang == "zh" else "Executive summary"
    assert [h for h in _headings(hostile) if h.lstrip("# ") == summary] == [f"# {summary}"]
    # The fake instruction changes nothing above the discussion: the summary and recommendation
    # say the same, up to the reviewer's words they quote.
    assert _unquoted(section(hostile, summary)) == _unquoted(section(plain, summary))

    html_headings = [
        [(tag, "".join(_elements(chunk).text)) for tag, chunk in re.findall(r"<(h[1-6])[^>]*>(.*?)</\1>", doc, re.S)]
        for doc in (report(UNTRUSTED, "html"), report(TWIN, "html"))
    ]
    masked = [[(tag, re.sub(rf"#{UNTRUSTED}|#{TWIN}", "#N", text)) for tag, text in doc] for doc in html_headings]
    assert masked[0] == masked[1]


def test_markdown_report_makes_no_link_and_no_raw_html(run_cli: Cli, hostile_db: Path) -> None:
    md = run_cli("report", ref(UNTRUSTED), "--lang", "en", "--no-llm", "--db", hostile_db).stdout
    assert INJECTION in md  # still quoted for the reader
    renderer = MarkdownIt("commonmark", {"html": True})
    renderer.validateLink = lambda url: True  # type: ignore[method-assign]
    tokens = renderer.parse(md)
    inline = [child for token in tokens if token.children for child in token.children]
    hrefs = [str(child.attrGet("href") or "") for child in inline if child.type == "link_open"]
    assert not [href for href in hrefs if "javascript" in href.lower()], hrefs
    raw = [t.content for t in [*tokens, *inline] if t.type in ("html_inline", "html_block")]
    assert not [chunk for chunk in raw if re.search(r"<(script|img|a)\b", chunk, re.I)], raw


def test_facts_keep_the_hostile_words_as_quotes(run_cli: Cli, hostile_db: Path) -> None:
    facts = run_cli.facts(ref(UNTRUSTED), hostile_db)
    threads = facts["discussion"]["threads"]
    quoted = " ".join(q["text"] for t in threads for q in t["quotes"])
    assert INJECTION in quoted
    assert "javascript" not in quoted
    assert "<" not in quoted
    # The review body repeats mallory's line comment: one thread, not two.
    assert [(t["origin"], t["quotes"][0]["author"]) for t in threads] == [
        ("review-thread", "mallory"),
        ("conversation", "mallory"),
    ]
    assert facts["discussion"]["approvals"] == ["hana-m"]
