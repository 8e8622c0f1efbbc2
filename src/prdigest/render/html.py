"""HTML of reports and feeds: jinja2 with autoescape, inline CSS, no script.

The one HTML path of a report: ``publish`` writes the standalone page, the web places the
same ``<article>`` (`render_report_body_html`) in its own layout.

Every untrusted string goes through autoescaping; the only markup made from text is
``<code>`` around backtick spans, built from escaped pieces. A strict Content-Security-Policy
meta tag forbids scripts even if something slipped through.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from urllib.parse import urlsplit

from jinja2 import BaseLoader, Environment, PackageLoader, select_autoescape
from markupsafe import Markup, escape

from prdigest.errors import ConfigError
from prdigest.models.feed import Feed
from prdigest.models.report import Report
from prdigest.render.markdown import when
from prdigest.words import CATALOG, Catalog

_NOT_IN_URLS = frozenset(' "<>`\\{}|^')
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")


def prose(text: str) -> Markup:
    """Escaped text with ``code`` spans shown as <code>."""
    escaped = escape(text)
    if "`" not in text:
        return escaped
    # Spans found in the escaped text are those of the text: escaping changes no backtick,
    # newline or whitespace, so the same spans match, their contents escaped.
    return Markup(_CODE_SPAN.sub(_code_tag, escaped))


def _code_tag(match: re.Match[str]) -> str:
    return f"<code>{match.group(2).strip()}</code>"


def diff_lines(text: str) -> Markup:
    """A diff excerpt, each line escaped in a span classed by its sign (one Python loop, not a
    template loop: excerpts are most of a full report's lines)."""
    out: list[str] = []
    for line in text.splitlines():
        kind = "add" if line.startswith("+") else ("del" if line.startswith("-") else "ctx")
        out.append(f'<span class="{kind}">{escape(line)}</span>\n')
    return Markup("".join(out))


def safe_url(url: str | None) -> str | None:
    """Only well-formed http(s) links become hrefs; anything else is shown as text."""
    if not url or any(ch in _NOT_IN_URLS or ord(ch) < 0x20 for ch in url):
        return None
    try:
        scheme = urlsplit(url).scheme.lower()
    except ValueError:
        return None
    return url if scheme in ("http", "https") else None


def _format_time(value: datetime | None) -> str:
    return when(value)


@lru_cache(maxsize=1)
def environment() -> Environment:
    return _environment(PackageLoader("prdigest.render", "templates"))


def _environment(loader: BaseLoader) -> Environment:
    env = Environment(
        loader=loader,
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # Templates ship inside the package: no stat of each file on every render.
        auto_reload=False,
    )
    env.filters["prose"] = prose
    env.filters["when"] = _format_time
    env.filters["diff_lines"] = diff_lines
    env.globals["safe_url"] = safe_url
    return env


# ``{{ txt['colon'] }}``: a label looked up by a literal key, nothing else in the braces.
_LABEL_OUTPUT = re.compile(r"\{\{ (txt|fld|hd)\['([a-z_]+)'\] \}\}")


class _LabelledLoader(BaseLoader):
    """The package's templates with each ``{{ txt['key'] }}`` (and ``fld``, ``hd``) written
    out as its escaped label in one language: a report page shows ~75 labels, each an
    escape and a lookup on every render, for text that is the same on every page."""

    def __init__(self, lookups: dict[str, _Lookup]) -> None:
        self._package = PackageLoader("prdigest.render", "templates")
        self._lookups = lookups

    def get_source(self, environment: Environment, template: str) -> tuple[str, str | None, Callable[[], bool] | None]:
        source, filename, uptodate = self._package.get_source(environment, template)
        return _LABEL_OUTPUT.sub(self._label, source), filename, uptodate

    def _label(self, match: re.Match[str]) -> str:
        try:
            text = str(escape(self._lookups[match.group(1)][match.group(2)]))
        except ConfigError:
            return match.group(0)  # a missing word fails when rendered, as it did
        # Only text that stays text where it stands: no tag can open in it ("{"), and it
        # starts no line a block tag's whitespace control would strip (newline, blank).
        if "{" in text or "\n" in text or not text.strip():
            return match.group(0)
        return text


@lru_cache(maxsize=16)
def _report_environment(catalog: Catalog, lang: str) -> Environment:
    """The report templates with one language's labels written in (`_LabelledLoader`)."""
    lookups = {name: found for name, found in _label_lookups(catalog, lang).items() if isinstance(found, _Lookup)}
    return _environment(_LabelledLoader(lookups))


class _Lookup(dict[str, str]):
    """``lab.text('colon')`` as ``txt['colon']`` in a template: a subscript costs a fraction
    of a jinja call (a report page shows ~50 labels; the calls were ~30% of rendering it),
    and a label asked for again in the page is a plain dict hit. A missing word still fails
    loudly: jinja would render a missing key as empty."""

    __slots__ = ("_get",)

    def __init__(self, get: Callable[[str], str]) -> None:
        super().__init__()
        self._get = get

    def __missing__(self, key: str) -> str:
        try:
            value = self._get(key)
        except KeyError as exc:
            raise ConfigError(str(exc)) from None
        self[key] = value
        return value


@lru_cache(maxsize=16)
def _label_lookups(catalog: Catalog, lang: str) -> dict[str, object]:
    """What a report template is given to look labels up: ``lab`` and ``txt``, ``fld`` and
    ``hd`` (a heading without values). Made once per language: a page asks for ~50 labels,
    every page of a language for the same ones (the words are read-only once loaded)."""
    lab = catalog.labels(lang)
    return {"lab": lab, "txt": _Lookup(lab.text), "fld": _Lookup(lab.field), "hd": _Lookup(lab.heading)}


def render_report_html(report: Report, *, catalog: Catalog = CATALOG) -> str:
    """The report as a standalone page (what ``publish`` writes)."""
    template = _report_environment(catalog, report.lang).get_template("report.html.j2")
    return template.render(r=report, standalone=True, **_label_lookups(catalog, report.lang))


def render_report_body_html(report: Report) -> Markup:
    """The report's ``<article>`` for a page that shows the title itself (the web's report
    page): the same markup as the standalone page, without its heading and title line."""
    template = _report_environment(CATALOG, report.lang).get_template("report_body.html.j2")
    return Markup(template.render(r=report, standalone=False, **_label_lookups(CATALOG, report.lang)))


def render_feed_html(feed: Feed, *, catalog: Catalog = CATALOG) -> str:
    lab = catalog.labels(feed.lang)
    template = environment().get_template("feed.html.j2")
    return template.render(feed=feed, lab=lab)
