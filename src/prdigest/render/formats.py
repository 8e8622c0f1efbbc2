"""The output formats: one registry that the CLI, ``publish`` and the web all read.

A format is a name (what ``--format`` takes), the file extension ``publish`` writes, the
media type the web serves and the renderer. Adding a format is adding a renderer and one
entry here; every caller picks it up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from prdigest.errors import ConfigError
from prdigest.models.feed import Feed
from prdigest.models.report import Report
from prdigest.render.atom import render_feed_atom
from prdigest.render.html import render_feed_html, render_report_html
from prdigest.render.json_schema import render_feed_json, render_report_json
from prdigest.render.markdown import render_feed_markdown, render_report_markdown

Document = TypeVar("Document", Report, Feed)


@dataclass(frozen=True)
class OutputFormat(Generic[Document]):
    name: str
    label: str  # how a link names it ("Markdown")
    short_label: str  # how a row of links names it ("MD")
    extension: str  # without the dot; may have several parts ("atom.xml")
    media_type: str
    render: Callable[[Document], str]

    def file_name(self, stem: str) -> str:
        return f"{stem}.{self.extension}"


_MARKDOWN = "text/markdown; charset=utf-8"
_HTML = "text/html; charset=utf-8"
_JSON = "application/json"
_ATOM = "application/atom+xml; charset=utf-8"

# Ordered as ``--format`` lists them.
REPORT_FORMATS: dict[str, OutputFormat[Report]] = {
    f.name: f
    for f in (
        OutputFormat[Report]("md", "Markdown", "MD", "md", _MARKDOWN, render_report_markdown),
        OutputFormat[Report]("json", "JSON", "JSON", "json", _JSON, render_report_json),
        OutputFormat[Report]("html", "HTML", "HTML", "html", _HTML, render_report_html),
    )
}
FEED_FORMATS: dict[str, OutputFormat[Feed]] = {
    f.name: f
    for f in (
        OutputFormat[Feed]("md", "Markdown", "MD", "md", _MARKDOWN, render_feed_markdown),
        OutputFormat[Feed]("json", "JSON", "JSON", "json", _JSON, render_feed_json),
        OutputFormat[Feed]("html", "HTML", "HTML", "html", _HTML, render_feed_html),
        OutputFormat[Feed]("atom", "Atom", "Atom", "atom.xml", _ATOM, render_feed_atom),
    )
}


def report_format(name: str) -> OutputFormat[Report]:
    return _pick(REPORT_FORMATS, name, "report")


def feed_format(name: str) -> OutputFormat[Feed]:
    return _pick(FEED_FORMATS, name, "feed")


def _pick(registry: dict[str, OutputFormat[Document]], name: str, what: str) -> OutputFormat[Document]:
    found = registry.get(name)
    if found is None:
        raise ConfigError(f"unknown {what} format {name!r}; choose one of {', '.join(registry)}")
    return found
