"""Publish: every report and feed of a repository as static files, with an index.

Layout (OUT/)::

    index.html, index.md
    feed.<lang>.{md,html,json,atom.xml}
    reports/<number>.<lang>.<full|brief>.{md,html,json}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from prdigest.config import LLMConfig
from prdigest.models.facts import Facts
from prdigest.models.feed import FeedItem
from prdigest.models.narrative import Length, RelatedNote
from prdigest.models.pullrequest import PullRequest
from prdigest.pipeline.item_failures import FATAL, ItemFailure, failure_reason
from prdigest.pipeline.ledger import ledger_links
from prdigest.pipeline.narrate import prepare, save_pending
from prdigest.pipeline.publish_stamps import (
    PageEntry,
    facts_current,
    load_manifest,
    page_stamp,
    save_manifest,
    unchanged,
)
from prdigest.pipeline.quick import code_fingerprint
from prdigest.pipeline.related import related_from_store
from prdigest.pipeline.report import PAGE_SIZE, current_facts, narrative_for, warm_narratives
from prdigest.render.build import build_report
from prdigest.render.feed import assemble_feed, failed_item, feed_item
from prdigest.render.formats import FEED_FORMATS, REPORT_FORMATS
from prdigest.render.site_index import (
    INDEX_REPORT_LINKS,
    IndexRow,
    feed_path,
    render_index_html,
    render_index_markdown,
    report_path,
)
from prdigest.store.publish_store import PageInputs, page_inputs
from prdigest.store.store import PRSummary, Store
from prdigest.text import printable
from prdigest.words import Lang, labels

LENGTHS: tuple[Length, ...] = ("full", "brief")


@dataclass
class Published:
    reports: int = 0
    feeds: int = 0
    # PRs whose reports could not be written (each has an item and an index row saying why).
    failures: list[ItemFailure] = field(default_factory=list)
    total: int = 0  # PRs in the window
    unchanged: int = 0  # PRs whose pages were already current (neither made nor rewritten)


def publish_site(
    store: Store,
    repository: str,
    out: Path,
    languages: list[Lang],
    llm: LLMConfig | None,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
    refresh: bool = False,
    on_start: Callable[[int], None] | None = None,
    on_done: Callable[[int], None] | None = None,
    page_size: int = PAGE_SIZE,
    code: str | None = None,
) -> Published:
    """Write the site under ``out``; ``on_start(total)`` and ``on_done(number)`` (per PR
    written) feed a progress bar. ``refresh``: narrate again with the LLM even when cached
    (once, in the concurrent pass; the writing pass reads what it stored).

    One PR's failure does not stop the rest: its feed item and index row say why, and
    `Published.failures` lists it. Only feed items are kept per PR, not the records (whole
    file contents), so memory stays flat however many PRs the repository has; with an LLM,
    ``page_size`` PRs are narrated concurrently, then written, before the next page is read.

    Without an LLM, publishing again to the same folder makes and rewrites only the pages of
    PRs whose inputs changed (`pipeline.publish_stamps`); the feeds and the index are always
    written again. ``code``: what stands for this prdigest's code and words in the stamps
    (default `pipeline.quick.code_fingerprint`)."""
    (out / "reports").mkdir(parents=True, exist_ok=True)
    # With an LLM a narrative may be retried or refreshed at any run: every page is made.
    previous = load_manifest(out) if llm is None else {}
    stamps: dict[int, PageEntry] = {}
    code = (code or code_fingerprint()) if llm is None else ""
    summaries = store.list_prs(repository=repository, since=since, until=until)
    written = Published(total=len(summaries))
    items: dict[Lang, list[FeedItem]] = {lang: [] for lang in languages}
    rows: dict[Lang, list[IndexRow]] = {lang: [] for lang in languages}
    if on_start is not None:
        on_start(len(summaries))
    for start in range(0, len(summaries), page_size):
        page = summaries[start : start + page_size]
        # With an LLM, a page's narratives are asked for concurrently first; only a page of
        # records is held at a time, so memory stays flat with an LLM too.
        loaded = _narrate_page(store, repository, [s.number for s in page], languages, llm, refresh)
        inputs = page_inputs(store, repository, [s.number for s in page]) if llm is None else {}
        for summary in page:
            try:
                reused = (
                    _reuse(store, repository, summary.number, inputs, previous, stamps, out, languages, code)
                    if llm is None
                    else None
                )
                if reused is True:
                    written.unchanged += 1
                    written.reports += len(stamps[summary.number].files)
                    for lang in languages:
                        items[lang].append(stamps[summary.number].items[lang])
                        rows[lang].append(stamps[summary.number].rows[lang])
                else:
                    _publish_pr(
                        store,
                        repository,
                        summary.number,
                        out,
                        languages,
                        llm,
                        items,
                        rows,
                        written,
                        loaded=loaded.pop(summary.number, None),
                        stamps=stamps if llm is None else None,
                        code=code,
                        related=None if isinstance(reused, bool) else reused,
                    )
            except FATAL:
                raise
            except Exception as exc:
                _record_failure(out, repository, summary, failure_reason(exc), languages, items, rows, written)
            if on_done is not None:
                on_done(summary.number)
    for lang in languages:
        feed = assemble_feed(repository, items[lang], lang, since=since, until=until)
        for feed_format in FEED_FORMATS.values():
            (out / feed_path(lang, feed_format)).write_text(feed_format.render(feed), encoding="utf-8")
            written.feeds += 1
    (out / "index.md").write_text(render_index_markdown(repository, languages, rows), encoding="utf-8")
    (out / "index.html").write_text(render_index_html(repository, languages, rows), encoding="utf-8")
    if llm is None:
        save_manifest(out, stamps)
    return written


def _reuse(
    store: Store,
    repository: str,
    number: int,
    inputs: dict[int, PageInputs],
    previous: dict[int, PageEntry],
    stamps: dict[int, PageEntry],
    out: Path,
    languages: list[Lang],
    code: str,
) -> list[RelatedNote] | bool | None:
    """True when the PR's pages in ``out`` are current (then its entry is kept in ``stamps``);
    else its related work when read to tell (valid for making its pages: its facts are
    current), or None."""
    entry = previous.get(number)
    if entry is None or not facts_current(inputs.get(number)):
        return None
    related = related_from_store(store, repository, number)
    stamp = page_stamp(store, repository, inputs.get(number), related, entry.packages, languages, code)
    if not unchanged(out, entry, stamp):
        return related
    stamps[number] = entry
    return True


def _record_failure(
    out: Path,
    repository: str,
    summary: PRSummary,
    reason: str,
    languages: list[Lang],
    items: dict[Lang, list[FeedItem]],
    rows: dict[Lang, list[IndexRow]],
    written: Published,
) -> None:
    """A PR whose reports could not be written: its feed item and index row say why."""
    written.failures.append(ItemFailure(summary.number, reason))
    _remove_reports(out, summary.number, languages)  # none half-written, none stale
    for lang in languages:
        when = (summary.merged_at, summary.created_at)
        items[lang].append(failed_item(repository, summary.number, summary.title, when, summary.state, reason, lang))
        lab = labels(lang)
        title = printable(" ".join(summary.title.split()))
        label = f"{lab.text('item_failed')}{lab.text('colon')}{printable(reason)}"
        rows[lang].append(IndexRow(summary.number, title, label, []))


def _narrate_page(
    store: Store,
    repository: str,
    numbers: list[int],
    languages: list[Lang],
    llm: LLMConfig | None,
    refresh: bool,
) -> dict[int, tuple[PullRequest, Facts]]:
    """With an LLM: the page's records and facts (read once, kept for rendering) after their
    narratives were asked for concurrently. Without one: nothing (the extractive narrator is
    CPU-bound; each PR is read when it is rendered)."""
    if llm is None:
        return {}
    known: dict[int, tuple[PullRequest, Facts]] = {}
    for number in numbers:
        try:
            pr = store.get_pr(repository, number)
            known[number] = (pr, current_facts(store, pr))
        except FATAL:
            raise
        except Exception:
            continue  # reported when the PR is rendered
    warm_narratives(store, list(known.values()), languages, list(LENGTHS), llm, refresh=refresh)
    return known


def _remove_reports(out: Path, number: int, languages: list[Lang]) -> None:
    for lang in languages:
        for length in LENGTHS:
            for fmt in REPORT_FORMATS.values():
                (out / report_path(number, lang, length, fmt.extension)).unlink(missing_ok=True)


def _publish_pr(
    store: Store,
    repository: str,
    number: int,
    out: Path,
    languages: list[Lang],
    llm: LLMConfig | None,
    items: dict[Lang, list[FeedItem]],
    rows: dict[Lang, list[IndexRow]],
    written: Published,
    *,
    loaded: tuple[PullRequest, Facts] | None = None,
    stamps: dict[int, PageEntry] | None = None,
    code: str = "",
    related: list[RelatedNote] | None = None,
) -> None:
    """Write one PR's reports; its feed items and index rows are added only once all are built.
    ``stamps``: where to record what its pages were built from (offline narration);
    ``related``: its related work when already read."""
    if loaded is None:
        pr = store.get_pr(repository, number)
        facts = current_facts(store, pr)
    else:
        pr, facts = loaded
    # Read and hashed once for the PR's every language and length.
    if related is None:
        related = related_from_store(store, pr.repository, pr.number)
    prepared = prepare(store, pr, facts, defer=True)
    ledger = ledger_links(store, repository, pr.number, facts)
    narratives = {
        (lang, length): narrative_for(store, pr, facts, lang, length, llm, related=related, prepared=prepared)
        for lang in languages
        for length in LENGTHS
    }
    save_pending(store, prepared)  # one transaction for the PR's new offline narratives
    documents: list[tuple[str, str]] = []
    new_items: dict[Lang, FeedItem] = {}
    new_rows: dict[Lang, IndexRow] = {}
    for lang in languages:
        links: list[tuple[str, str]] = []
        lab = labels(lang)
        for length in LENGTHS:
            narrative = narratives[(lang, length)]
            if length == "brief":
                new_items[lang] = feed_item(pr, facts, narrative, lang)
            report = build_report(pr, facts, narrative, lang, length, ledger=ledger)
            for fmt in REPORT_FORMATS.values():
                relative = report_path(pr.number, lang, length, fmt.extension)
                documents.append((relative, fmt.render(report)))
            for fmt in (REPORT_FORMATS[name] for name in INDEX_REPORT_LINKS):
                relative = report_path(pr.number, lang, length, fmt.extension)
                links.append((f"{lab.field(length)} {fmt.short_label}", relative))
        title = printable(" ".join(pr.title.split()))
        new_rows[lang] = IndexRow(pr.number, title, lab.verdict(facts.verdict.level.value), links)
    # Every document built: only now is anything of this PR written.
    for relative, text in documents:
        (out / relative).write_text(text, encoding="utf-8")
        written.reports += 1
    for lang in languages:
        items[lang].append(new_items[lang])
        rows[lang].append(new_rows[lang])
    if stamps is not None:
        # Stamped from what is stored now that the PR's narratives are saved.
        packages = [change.package for change in facts.dependencies.changes]
        inputs = page_inputs(store, repository, [pr.number]).get(pr.number)
        stamp = page_stamp(store, repository, inputs, related, packages, languages, code)
        if stamp is not None:
            stamps[pr.number] = PageEntry(
                stamp,
                packages,
                [relative for relative, _ in documents],
                {lang: new_items[lang] for lang in languages},
                {lang: new_rows[lang] for lang in languages},
            )
