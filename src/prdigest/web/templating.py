"""Jinja2 environment (autoescape always on) and the helpers templates use."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup
from starlette.responses import HTMLResponse

from prdigest.store.search_store import MARK_END, MARK_START
from prdigest.text import printable
from prdigest.web.chip_labels import chip_label
from prdigest.words import DEFAULT_LANG, LanguageInfo, WordTable, languages, words

TEMPLATES_DIR = Path(__file__).parent / "templates"


def repo_path(repository: str) -> str:
    return f"/repos/{repository}"


def pr_path(repository: str, number: int) -> str:
    return f"/repos/{repository}/pulls/{number}"


def with_query(path: str, **params: object) -> str:
    """``path?k=v`` with empty values dropped, values URL-encoded."""
    kept = {k: str(v) for k, v in params.items() if v not in (None, "")}
    return f"{path}?{urlencode(kept)}" if kept else path


def ui_words(lang: str) -> WordTable:
    """The web UI's own words (``prdigest/words/<lang>/web.toml``)."""
    return words(lang).table("web", "ui")


def language_info(lang: str) -> LanguageInfo:
    """A language's name and HTML lang, for the language switch."""
    return words(lang).info


def short_date(value: datetime | None) -> str:
    return "" if value is None else value.strftime("%Y-%m-%d")


def highlight_snippet(snippet: str) -> Markup:
    """Escape a search snippet, then turn the match markers into <mark>."""
    escaped = str(Markup.escape(snippet))
    return Markup(escaped.replace(MARK_START, "<mark>").replace(MARK_END, "</mark>"))


_MARKS = re.compile(f"({re.escape(MARK_START)}|{re.escape(MARK_END)})")


def printable_snippet(snippet: str) -> str:
    """`printable` for a search snippet, keeping its match markers (themselves control
    characters) and only as balanced pairs: a stray one from the stored text is dropped."""
    kept: list[str] = []
    inside = False
    for part in _MARKS.split(snippet):
        if part in (MARK_START, MARK_END):
            if (part == MARK_START) != inside:
                kept.append(part)
                inside = not inside
        elif part:
            kept.append(printable(part))
    if inside:
        kept.append(MARK_END)
    return "".join(kept)


def strip_marks(snippet: str) -> str:
    return snippet.replace(MARK_START, "").replace(MARK_END, "")


def make_environment() -> Environment:
    environment = Environment(
        loader=FileSystemLoader(TEMPLATES_DIR),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )
    environment.globals.update(
        repo_path=repo_path,
        pr_path=pr_path,
        with_query=with_query,
        words=ui_words,
        languages=languages(),
        language_info=language_info,
        short_date=short_date,
        chip_label=chip_label,
    )
    environment.filters["snippet"] = highlight_snippet
    return environment


class Renderer:
    """Renders a template into an HTML response."""

    def __init__(self, environment: Environment) -> None:
        self.environment = environment

    def html(self, name: str, **context: Any) -> str:
        lang = context.get("lang", DEFAULT_LANG)
        return self.environment.get_template(name).render(t=ui_words(lang), **context)

    def fragment(self, name: str, **context: Any) -> Markup:
        """A partial template's HTML, safe to put in a page as it is (it was autoescaped)."""
        return Markup(self.html(name, **context))

    def page(self, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(self.html(name, **context), status_code=status_code)
