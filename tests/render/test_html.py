"""HTML: standalone, no script, every untrusted string escaped."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest

from prdigest.narrate.extractive import narrate_extractive
from prdigest.render.build import build_report
from prdigest.render.feed import build_feed
from prdigest.render.html import render_feed_html, render_report_html, safe_url
from prdigest.words import Lang


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.extend(attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parse(html: str) -> _Tags:
    parser = _Tags()
    parser.feed(html)
    return parser


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_xss_payloads_are_inert(seeds: Any, lang: Lang) -> None:
    pr, facts = seeds.hostile_pr(), seeds.hostile_facts()
    narrative = narrate_extractive(pr, facts, [], lang, "full")
    html = render_report_html(build_report(pr, facts, narrative, lang, "full"))
    parsed = _parse(html)
    assert "script" not in parsed.tags
    assert not {"img", "svg", "b", "i"} & set(parsed.tags)
    assert not any(name.startswith("on") for name, _ in parsed.attrs)
    assert not any(value and "javascript:" in value for _, value in parsed.attrs)
    text = "".join(parsed.text)
    assert "<script>alert(1)</script>" in text  # shown as text
    assert "src/<b>x</b>.py" in text
    # the hostile URL is not a link
    assert not any(name == "href" for name, _ in parsed.attrs)
    feed = render_feed_html(build_feed("evil/repo", [(pr, facts, narrative)], lang))
    feed_parsed = _parse(feed)
    assert "script" not in feed_parsed.tags
    assert "<script>alert(1)</script>" in "".join(feed_parsed.text)


def test_standalone_with_csp_and_no_external_resources(seeds: Any) -> None:
    pr, facts = seeds.humming_pr(), seeds.humming_facts()
    html = render_report_html(build_report(pr, facts, narrate_extractive(pr, facts, [], "zh", "full"), "zh", "full"))
    parsed = _parse(html)
    assert "style" in parsed.tags
    assert "script" not in parsed.tags
    assert "link" not in parsed.tags
    assert "default-src 'none'" in html
    assert '<a href="https://github.com/vllm-project/vllm/pull/43530"' in html
    assert "<code>HummingConfig.__init__</code>" in html
    assert html.count('<section id="') == 7


def test_safe_url() -> None:
    assert safe_url("https://x.y/z") == "https://x.y/z"
    assert safe_url("javascript:alert(1)") is None
    assert safe_url("JaVaScRiPt:alert(1)") is None
    assert safe_url(None) is None
