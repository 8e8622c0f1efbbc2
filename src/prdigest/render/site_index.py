"""The index page of a published site (``index.md``, ``index.html``): links to every report
and feed, per language. `prdigest.pipeline.publish` writes the files it links to."""

from __future__ import annotations

from dataclasses import dataclass

from prdigest.render.html import environment
from prdigest.render.markdown import inline
from prdigest.words import Lang, labels


@dataclass(frozen=True)
class IndexRow:
    number: int
    title: str
    verdict_label: str
    links: list[tuple[str, str]]  # (label, relative path)


def report_path(number: int, lang: str, length: str, ext: str) -> str:
    return f"reports/{number}.{lang}.{length}.{ext}"


def render_index_html(repository: str, languages: list[Lang], rows: dict[Lang, list[IndexRow]]) -> str:
    template = environment().get_template("index.html.j2")
    return template.render(repository=repository, languages=languages, rows=rows, labels=labels)


def render_index_markdown(repository: str, languages: list[Lang], rows: dict[Lang, list[IndexRow]]) -> str:
    lines = [f"# {inline(repository)}", ""]
    for lang in languages:
        lab = labels(lang)
        lines += [f"## {lab.field('feed')} ({lang})", ""]
        lines.append(
            f"- [{lab.field('feed')}](feed.{lang}.md) · [HTML](feed.{lang}.html) · [Atom](feed.{lang}.atom.xml)"
        )
        lines += ["", f"## {lab.field('reports')} ({lang})", ""]
        for row in rows[lang]:
            links = " · ".join(f"[{label}]({path})" for label, path in row.links)
            lines.append(f"- #{row.number} {inline(row.title)} — {inline(row.verdict_label)} — {links}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
