"""The output formats: one registry that the CLI, ``publish`` and the web all read.

A format is a name (what ``--format`` takes), the file extension ``publish`` writes, the
media type the web serves and the renderer. Adding a format is adding a renderer and one
entry here; every caller picks it up.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from prdigest.errors import ConfigError

if TYPE_CHECKING:
    # Types only: a report does not load the feed's models (nor the registry the report's).
    from prdigest.models.feed import Feed
    from prdigest.models.report import Report

Document = TypeVar("Document", "Report", "Feed")


def _lazy(module: str, name: str) -> Callable[[Document], str]:
    """A renderer imported on its first call: the HTML and Atom renderers load Jinja, which a
    command writing Markdown (or listing ``--format`` choices) should not pay for at start-up."""
    found: list[Callable[[Document], str]] = []

    def render(document: Document) -> str:
        if not found:
            found.append(getattr(importlib.import_module(module), name))
        return found[0](document)

    render.__name__ = name
    render.__qualname__ = name
    return render


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
        OutputFormat["Report"](
            "md", "Markdown", "MD", "md", _MARKDOWN, _lazy("prdigest.render.markdown", "render_report_markdown")
        ),
        OutputFormat["Report"](
            "json", "JSON", "JSON", "json", _JSON, _lazy("prdigest.render.json_schema", "render_report_json")
        ),
        OutputFormat["Report"](
            "html", "HTML", "HTML", "html", _HTML, _lazy("prdigest.render.html", "render_report_html")
        ),
    )
}
FEED_FORMATS: dict[str, OutputFormat[Feed]] = {
    f.name: f
    for f in (
        OutputFormat["Feed"](
            "md", "Markdown", "MD", "md", _MARKDOWN, _lazy("prdigest.render.markdown", "render_feed_markdown")
        ),
        OutputFormat["Feed"](
            "json", "JSON", "JSON", "json", _JSON, _lazy("prdigest.render.json_schema", "render_feed_json")
        ),
        OutputFormat["Feed"]("html", "HTML", "HTML", "html", _HTML, _lazy("prdigest.render.html", "render_feed_html")),
        OutputFormat["Feed"](
            "atom", "Atom", "Atom", "atom.xml", _ATOM, _lazy("prdigest.render.atom", "render_feed_atom")
        ),
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
