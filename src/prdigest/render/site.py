"""``publish``: every report and feed of a repository as static files, with an index.

Layout (OUT/)::

    index.html, index.md
    feed.<lang>.{md,html,json,atom.xml}
    reports/<number>.<lang>.<full|brief>.{md,html,json}
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from prdigest.config import LLMConfig
from prdigest.models.feed import Feed
from prdigest.models.narrative import Lang, Length
from prdigest.narrate.pipeline import current_facts, narrative_for, warm_narratives
from prdigest.render.build import build_report
from prdigest.render.feed import build_feed
from prdigest.render.formats import FEED_FORMATS, REPORT_FORMATS, OutputFormat
from prdigest.render.html import environment
from prdigest.render.i18n import labels
from prdigest.render.markdown import inline
from prdigest.store.store import Store
from prdigest.text import printable

LENGTHS: tuple[Length, ...] = ("full", "brief")
# Which formats the index links to, in its order: every report and feed format is written.
INDEX_REPORT_LINKS = ("html", "md")
INDEX_FEED_LINKS = ("html", "md", "atom", "json")


@dataclass
class Published:
    reports: int = 0
    feeds: int = 0


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


def publish_site(
    store: Store,
    repository: str,
    out: Path,
    languages: list[Lang],
    llm: LLMConfig | None,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
    console: Console | None = None,
) -> Published:
    (out / "reports").mkdir(parents=True, exist_ok=True)
    summaries = store.list_prs(repository=repository, since=since, until=until)
    written = Published()
    entries: dict[Lang, list[tuple[object, object, object]]] = {lang: [] for lang in languages}
    rows: dict[Lang, list[IndexRow]] = {lang: [] for lang in languages}
    progress = Progress(
        TextColumn("[bold]publish[/bold] {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console or Console(stderr=True),
        transient=True,
    )
    if llm is not None:
        # Facts first, one by one (they may be written); then the LLM calls, concurrently.
        known = [(pr, current_facts(store, pr)) for pr in (store.get_pr(repository, s.number) for s in summaries)]
        warm_narratives(store, known, languages, list(LENGTHS), llm)
    with progress:
        task = progress.add_task(repository, total=len(summaries))
        for summary in summaries:
            pr = store.get_pr(repository, summary.number)
            facts = current_facts(store, pr)
            for lang in languages:
                links: list[tuple[str, str]] = []
                lab = labels(lang)
                for length in LENGTHS:
                    narrative = narrative_for(store, pr, facts, lang, length, llm)
                    if length == "brief":
                        entries[lang].append((pr, facts, narrative))
                    report = build_report(pr, facts, narrative, lang, length)
                    for fmt in REPORT_FORMATS.values():
                        relative = report_path(pr.number, lang, length, fmt.extension)
                        (out / relative).write_text(fmt.render(report), encoding="utf-8")
                        written.reports += 1
                    for fmt in (REPORT_FORMATS[name] for name in INDEX_REPORT_LINKS):
                        relative = report_path(pr.number, lang, length, fmt.extension)
                        links.append((f"{lab.field(length)} {fmt.short_label}", relative))
                title = printable(" ".join(pr.title.split()))
                rows[lang].append(IndexRow(pr.number, title, lab.verdict(facts.verdict.level.value), links))
            progress.advance(task)
    for lang in languages:
        feed = build_feed(repository, entries[lang], lang, since=since, until=until)  # type: ignore[arg-type]
        for feed_format in FEED_FORMATS.values():
            (out / feed_path(lang, feed_format)).write_text(feed_format.render(feed), encoding="utf-8")
            written.feeds += 1
    (out / "index.md").write_text(_index_markdown(repository, languages, rows), encoding="utf-8")
    template = environment().get_template("index.html.j2")
    (out / "index.html").write_text(
        template.render(
            repository=repository, languages=languages, rows=rows, labels=labels, feed_links=_index_feed_links
        ),
        encoding="utf-8",
    )
    return written


def _index_markdown(repository: str, languages: list[Lang], rows: dict[Lang, list[IndexRow]]) -> str:
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
