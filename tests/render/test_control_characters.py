"""Control characters in PR text are neutralized where the Report / Feed is built, so no
renderer (Markdown, HTML, JSON, Atom) writes them out."""

from __future__ import annotations

import re
from typing import Any

import pytest

from prdigest.narrate.extractive import narrate_extractive
from prdigest.render.atom import render_feed_atom
from prdigest.render.build import build_report
from prdigest.render.feed import build_feed
from prdigest.render.html import render_feed_html, render_report_html
from prdigest.render.json_schema import render_feed_json, render_report_json
from prdigest.render.markdown import render_feed_markdown, render_report_markdown
from prdigest.words import Lang

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
TITLE = "Fix \x1b[2J\x1b]0;pwned\x07 the spacing"
BODY = "Spacing was off \x1b[31mbadly\x1b[0m.\rAll good.\r\nNUL\x00 and C1\x9b here.\n"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_renderer_gets_clean_text(seeds: Any, lang: Lang) -> None:
    pr = seeds.humming_pr().model_copy(update={"title": TITLE, "body": BODY})
    facts = seeds.humming_facts()
    narrative = narrate_extractive(pr, facts, [], lang, "full")
    report = build_report(pr, facts, narrative, lang, "full")
    assert report.header.title == "Fix \ufffd[2J\ufffd]0;pwned\ufffd the spacing"
    feed = build_feed(pr.repository, [(pr, facts, narrative)], lang)
    outputs = {
        "report.md": render_report_markdown(report),
        "report.html": render_report_html(report),
        "report.json": render_report_json(report),
        "feed.md": render_feed_markdown(feed),
        "feed.html": render_feed_html(feed),
        "feed.json": render_feed_json(feed),
        "feed.atom": render_feed_atom(feed),
    }
    for name, text in outputs.items():
        assert not CONTROL.search(text), (name, CONTROL.findall(text))
        assert "pwned" in text, name


def test_lists_and_nested_parts_are_cleaned_too(seeds: Any) -> None:
    pr = seeds.humming_pr()
    facts = seeds.humming_facts()
    narrative = narrate_extractive(pr, facts, [], "en", "brief")
    narrative = narrative.model_copy(update={"risks": ["a\x1b[2Jb"], "one_line": "x\ry"})
    report = build_report(pr, facts, narrative, "en", "brief")
    assert report.risks.risks == ["a\ufffd[2Jb"]
    assert report.summary.one_line == "x\ufffdy"
