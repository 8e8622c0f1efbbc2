"""The index page of a published site (``index.md``, ``index.html``): links to every report
and feed, per language. `prdigest.pipeline.publish` writes the files it links to."""

from __future__ import annotations

from dataclasses import dataclass

from prdigest.models.feed import Feed
from prdigest.render.formats import FEED_FORMATS, OutputFormat
from prdigest.render.html import environment
from prdigest.render.markdown import inline
from prdigest.words import Lang, labels

# Which formats the index links to, in its order: every report and feed format is written.
INDEX_REPORT_LINKS = ("html", "md")
INDEX_FEED_LINKS = ("html", "md", "atom", "json")


@dataclass(frozen=True)
class IndexRow:
    number: int
    title: str
    verdict_label: str
    links: list[tuple[str, str]]  # (label, relative path)


def report_path(number: int, lang: str, length: str, ext: str) -> str:
    return f"reports/{number}.{lang}.{length}.{ext}"


def feed_path(lang: str, fmt: OutputFormat[Feed]) -> str:
    return fmt.file_name(f"feed.{lang}")


def _index_feed_links(lang: str) -> list[tuple[str, str]]:
    """(label, relative path) of the feed files the index links to."""
    return [(FEED_FORMATS[name].label, feed_path(lang, FEED_FORMATS[name])) for name in INDEX_FEED_LINKS]


def render_index_html(repository: str, languages: list[Lang], rows: dict[Lang, list[IndexRow]]) -> str:
    template = environment().get_template("index.html.j2")
    return template.render(
        repository=repository, languages=languages, rows=rows, labels=labels, feed_links=_index_feed_links
    )


def render_index_markdown(repository: str, languages: list[Lang], rows: dict[Lang, list[IndexRow]]) -> str:
    lines = [f"# {inline(repository)}", ""]
    for lang in languages:
        lab = labels(lang)
        lines += [f"## {lab.field('feed')} ({lang})", ""]
        md, html, atom = (FEED_FORMATS[name] for name in ("md", "html", "atom"))
        lines.append(
            f"- [{lab.field('feed')}]({feed_path(lang, md)}) · [{html.label}]({feed_path(lang, html)})"
            f" · [{atom.label}]({feed_path(lang, atom)})"
        )
        lines += ["", f"## {lab.field('reports')} ({lang})", ""]
        for row in rows[lang]:
            links = " · ".join(f"[{label}]({path})" for label, path in row.links)
            lines.append(f"- #{row.number} {inline(row.title)} — {inline(row.verdict_label)} — {links}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
