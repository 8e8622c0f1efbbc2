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
from typing import TYPE_CHECKING

from prdigest.config import LLMConfig
from prdigest.models.facts import Facts
from prdigest.models.feed import FeedItem
from prdigest.models.narrative import RelatedNote
from prdigest.models.pullrequest import PullRequest
from prdigest.pipeline.item_failures import ItemFailure, failure_reason, raise_unless_item_failure
from prdigest.pipeline.publish_pages import LENGTHS, PRPages, make_page, pages_or_why
from prdigest.pipeline.publish_stamps import (
    PageEntry,
    facts_current,
    load_manifest,
    page_stamp,
    save_manifest,
    unchanged,
)
from prdigest.pipeline.publish_tail import TailTask, tail_tasks, write_tail
from prdigest.pipeline.publish_workers import WORKER_PAGE_SIZE, PageTask, make_in_workers
from prdigest.pipeline.quick import code_fingerprint
from prdigest.pipeline.related import related_from_store
from prdigest.pipeline.report import PAGE_SIZE, current_facts, warm_narratives
from prdigest.pipeline.worker_pool import worker_count
from prdigest.render.feed import failed_item
from prdigest.render.formats import FEED_FORMATS, REPORT_FORMATS
from prdigest.render.site_index import IndexRow, report_path

if TYPE_CHECKING:  # the linked context comes with the (optional) LLM narrator
    from prdigest.pipeline.linked_context import IssueSource
from prdigest.store.publish_store import PageInputs, page_inputs
from prdigest.store.store import PRSummary, Store
from prdigest.text import printable
from prdigest.words import Lang, labels


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
    jobs: int | None = 1,
    issues: IssueSource | None = None,
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
    (default `pipeline.quick.code_fingerprint`). ``jobs``: worker processes making the pages
    without an LLM (None: one per CPU; few PRs, or a database other processes cannot open,
    stay in this process); the site is the same whatever the number."""
    (out / "reports").mkdir(parents=True, exist_ok=True)
    # With an LLM a narrative may be retried or refreshed at any run: every page is made.
    previous = load_manifest(out) if llm is None else {}
    code = (code or code_fingerprint()) if llm is None else ""
    summaries = store.list_prs(repository=repository, since=since, until=until)
    written = Published(total=len(summaries))
    # By number: its pages, or why they could not be written (its feed item and row say so).
    outcomes: dict[int, PRPages] = {}
    by_number = {summary.number: summary for summary in summaries}

    def done(number: int, outcome: PRPages | str) -> None:
        if isinstance(outcome, str):
            written.failures.append(ItemFailure(number, outcome))
            _remove_reports(out, number, languages)  # none half-written, none stale
            outcomes[number] = _failed_pages(repository, by_number[number], outcome, languages)
        else:
            outcomes[number] = outcome
            written.reports += outcome.reports
        if on_done is not None:
            on_done(number)

    def tail() -> list[TailTask]:
        """The feeds and the index, of every PR in the window's order however its pages were made."""
        items: dict[Lang, list[FeedItem]] = {lang: [] for lang in languages}
        rows: dict[Lang, list[IndexRow]] = {lang: [] for lang in languages}
        for summary in summaries:
            pages = outcomes[summary.number]
            for lang in languages:
                items[lang].append(pages.items[lang])
                rows[lang].append(pages.rows[lang])
        return tail_tasks(languages, items, rows, since, until)

    if on_start is not None:
        on_start(len(summaries))
    tail_written = False
    if llm is not None:
        for start in range(0, len(summaries), page_size):
            numbers = [s.number for s in summaries[start : start + page_size]]
            # A page's narratives are asked for concurrently first; only a page of records
            # is held at a time, so memory stays flat with an LLM too.
            loaded = _narrate_page(store, repository, numbers, languages, llm, refresh, issues)
            for number in numbers:
                done(
                    number,
                    pages_or_why(store, repository, number, out, languages, llm, loaded=loaded.pop(number, None)),
                )
    else:
        todo: list[tuple[int, list[RelatedNote] | None]] = []
        for start in range(0, len(summaries), page_size):
            numbers = [s.number for s in summaries[start : start + page_size]]
            # Read only to tell whether a PR's earlier pages are current.
            inputs = page_inputs(store, repository, numbers) if any(n in previous for n in numbers) else {}
            for number in numbers:
                try:
                    reused = _reuse(store, repository, number, inputs, previous, out, languages, code)
                except Exception as exc:
                    raise_unless_item_failure(exc)
                    done(number, failure_reason(exc))
                    continue
                if isinstance(reused, PageEntry):
                    written.unchanged += 1
                    done(number, PRPages(reused.items, reused.rows, len(reused.files), reused))
                else:
                    todo.append((number, reused))
        count = worker_count(jobs, len(todo)) if store.reopenable() else 1
        if count > 1:
            task = PageTask(store.url, repository, str(out), list(languages), code)
            # The feeds and the index are shared out by the same processes once every page is made.
            for number, outcome in make_in_workers(store, task, [number for number, _ in todo], count, then=tail):
                done(number, outcome)
            tail_written = True
        else:
            for start in range(0, len(todo), WORKER_PAGE_SIZE):
                page = todo[start : start + WORKER_PAGE_SIZE]
                for number, outcome in make_page(
                    store, repository, [n for n, _ in page], out, languages, code, dict(page)
                ):
                    done(number, outcome)
    if not tail_written:
        for last in tail():
            write_tail(last, out, repository)
    written.feeds = len(languages) * len(FEED_FORMATS)
    if llm is None:
        entries = ((summary.number, outcomes[summary.number].entry) for summary in summaries)
        save_manifest(out, {number: entry for number, entry in entries if entry is not None})
    return written


def _reuse(
    store: Store,
    repository: str,
    number: int,
    inputs: dict[int, PageInputs],
    previous: dict[int, PageEntry],
    out: Path,
    languages: list[Lang],
    code: str,
) -> PageEntry | list[RelatedNote] | None:
    """The PR's entry when its pages in ``out`` are current; else its related work when read
    to tell (valid for making its pages: its facts are current), or None."""
    entry = previous.get(number)
    if entry is None or not facts_current(inputs.get(number)):
        return None
    related = related_from_store(store, repository, number)
    stamp = page_stamp(store, repository, inputs.get(number), related, entry.packages, languages, code)
    if not unchanged(out, entry, stamp):
        return related
    return entry


def _failed_pages(repository: str, summary: PRSummary, reason: str, languages: list[Lang]) -> PRPages:
    """A PR whose reports could not be written: its feed item and index row say why."""
    items: dict[str, FeedItem] = {}
    rows: dict[str, IndexRow] = {}
    for lang in languages:
        when = (summary.merged_at, summary.created_at)
        items[lang] = failed_item(repository, summary.number, summary.title, when, summary.state, reason, lang)
        lab = labels(lang)
        title = printable(" ".join(summary.title.split()))
        label = f"{lab.text('item_failed')}{lab.text('colon')}{printable(reason)}"
        rows[lang] = IndexRow(summary.number, title, label, [])
    return PRPages(items, rows, 0, None)


def _narrate_page(
    store: Store,
    repository: str,
    numbers: list[int],
    languages: list[Lang],
    llm: LLMConfig | None,
    refresh: bool,
    issues: IssueSource | None = None,
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
        except Exception as exc:
            raise_unless_item_failure(exc)
            continue  # reported when the PR is rendered
    warm_narratives(store, list(known.values()), languages, list(LENGTHS), llm, refresh=refresh, issues=issues)
    return known


def _remove_reports(out: Path, number: int, languages: list[Lang]) -> None:
    for lang in languages:
        for length in LENGTHS:
            for fmt in REPORT_FORMATS.values():
                (out / report_path(number, lang, length, fmt.extension)).unlink(missing_ok=True)
