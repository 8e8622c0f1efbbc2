"""Publish: every report and feed of a repository as static files, with an index.

Layout (OUT/)::

    index.html, index.md
    feed.<lang>.{md,html,json,atom.xml}
    reports/<number>.<lang>.<full|brief>.{md,html,json}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from prdigest.config import LLMConfig
from prdigest.models.narrative import Length
from prdigest.pipeline.ledger import ledger_links
from prdigest.pipeline.report import current_facts, narrative_for, warm_narratives
from prdigest.render.build import build_report
from prdigest.render.feed import build_feed
from prdigest.render.formats import FEED_FORMATS, REPORT_FORMATS
from prdigest.render.site_index import (
    INDEX_REPORT_LINKS,
    IndexRow,
    feed_path,
    render_index_html,
    render_index_markdown,
    report_path,
)
from prdigest.store.store import Store
from prdigest.text import printable
from prdigest.words import Lang, labels

LENGTHS: tuple[Length, ...] = ("full", "brief")


@dataclass
class Published:
    reports: int = 0
    feeds: int = 0


def publish_site(
    store: Store,
    repository: str,
    out: Path,
    languages: list[Lang],
    llm: LLMConfig | None,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
    on_start: Callable[[int], None] | None = None,
    on_done: Callable[[int], None] | None = None,
) -> Published:
    """Write the site under ``out``; ``on_start(total)`` and ``on_done(number)`` (per PR
    written) feed a progress bar."""
    (out / "reports").mkdir(parents=True, exist_ok=True)
    summaries = store.list_prs(repository=repository, since=since, until=until)
    written = Published()
    entries: dict[Lang, list[tuple[object, object, object]]] = {lang: [] for lang in languages}
    rows: dict[Lang, list[IndexRow]] = {lang: [] for lang in languages}
    if llm is not None:
        # Facts first, one by one (they may be written); then the LLM calls, concurrently.
        known = [(pr, current_facts(store, pr)) for pr in (store.get_pr(repository, s.number) for s in summaries)]
        warm_narratives(store, known, languages, list(LENGTHS), llm)
    if on_start is not None:
        on_start(len(summaries))
    for summary in summaries:
        pr = store.get_pr(repository, summary.number)
        facts = current_facts(store, pr)
        ledger = ledger_links(store, repository, pr.number, facts)
        for lang in languages:
            links: list[tuple[str, str]] = []
            lab = labels(lang)
            for length in LENGTHS:
                narrative = narrative_for(store, pr, facts, lang, length, llm)
                if length == "brief":
                    entries[lang].append((pr, facts, narrative))
                report = build_report(pr, facts, narrative, lang, length, ledger=ledger)
                for fmt in REPORT_FORMATS.values():
                    relative = report_path(pr.number, lang, length, fmt.extension)
                    (out / relative).write_text(fmt.render(report), encoding="utf-8")
                    written.reports += 1
                for fmt in (REPORT_FORMATS[name] for name in INDEX_REPORT_LINKS):
                    relative = report_path(pr.number, lang, length, fmt.extension)
                    links.append((f"{lab.field(length)} {fmt.short_label}", relative))
            title = printable(" ".join(pr.title.split()))
            rows[lang].append(IndexRow(pr.number, title, lab.verdict(facts.verdict.level.value), links))
        if on_done is not None:
            on_done(pr.number)
    for lang in languages:
        feed = build_feed(repository, entries[lang], lang, since=since, until=until)  # type: ignore[arg-type]
        for feed_format in FEED_FORMATS.values():
            (out / feed_path(lang, feed_format)).write_text(feed_format.render(feed), encoding="utf-8")
            written.feeds += 1
    (out / "index.md").write_text(render_index_markdown(repository, languages, rows), encoding="utf-8")
    (out / "index.html").write_text(render_index_html(repository, languages, rows), encoding="utf-8")
    return written
