"""The output-format registry: what the CLI offers, what publish writes, what the web serves."""

from __future__ import annotations

from typing import Any

import click
import pytest

from prdigest.cli.report import feed, report
from prdigest.errors import ConfigError
from prdigest.narrate.extractive import narrate_extractive
from prdigest.render.build import build_report
from prdigest.render.feed import build_feed
from prdigest.render.formats import FEED_FORMATS, REPORT_FORMATS, feed_format, report_format


def _choices(command: click.Command) -> list[str]:
    option = next(p for p in command.params if p.name == "fmt")
    assert isinstance(option.type, click.Choice)
    return list(option.type.choices)


def test_the_cli_offers_the_registered_formats() -> None:
    assert _choices(report) == list(REPORT_FORMATS) == ["md", "json", "html"]
    assert _choices(feed) == list(FEED_FORMATS) == ["md", "json", "html", "atom"]


def test_each_format_names_its_file_and_media_type() -> None:
    assert [f.file_name("feed.zh") for f in FEED_FORMATS.values()] == [
        "feed.zh.md",
        "feed.zh.json",
        "feed.zh.html",
        "feed.zh.atom.xml",
    ]
    assert feed_format("atom").media_type == "application/atom+xml; charset=utf-8"
    assert report_format("html").media_type.startswith("text/html")


def test_unknown_formats_are_refused() -> None:
    with pytest.raises(ConfigError, match="unknown report format 'pdf'"):
        report_format("pdf")
    with pytest.raises(ConfigError, match="md, json, html, atom"):
        feed_format("rss")


def test_every_format_renders(seeds: Any) -> None:
    pr, facts = seeds.humming_pr(), seeds.humming_facts()
    narrative = narrate_extractive(pr, facts, [], "en", "brief")
    built = build_report(pr, facts, narrative, "en", "brief")
    reading = build_feed(pr.repository, [(pr, facts, narrative)], "en")
    for fmt in REPORT_FORMATS.values():
        assert str(pr.number) in fmt.render(built), fmt.name
    for feed_fmt in FEED_FORMATS.values():
        assert str(pr.number) in feed_fmt.render(reading), feed_fmt.name


def test_light_format_names_are_the_registry_names() -> None:
    from prdigest.render.format_names import FEED_FORMAT_NAMES, REPORT_FORMAT_NAMES
    from prdigest.render.formats import FEED_FORMATS, REPORT_FORMATS

    assert tuple(REPORT_FORMATS) == REPORT_FORMAT_NAMES
    assert tuple(FEED_FORMATS) == FEED_FORMAT_NAMES
