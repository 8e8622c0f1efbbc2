"""Build a report or a feed: load the PR from the store, make sure it has current facts,
narrate (cached), build. Shared by the CLI, the web app and publishing."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from prdigest.config import LLMConfig
from prdigest.models.facts import Facts
from prdigest.models.feed import Feed, FeedItem
from prdigest.models.narrative import Length, Narrative, RelatedNote
from prdigest.models.pullrequest import PullRequest
from prdigest.models.report import Report
from prdigest.pipeline.analyze import ensure_facts
from prdigest.pipeline.item_failures import FATAL, ItemFailure, failure_reason, raise_unless_item_failure
from prdigest.pipeline.ledger import ledger_links
from prdigest.pipeline.narrate import PreparedPR, narrate
from prdigest.pipeline.related import related_from_store
from prdigest.render.build import build_report
from prdigest.render.feed import assemble_feed, failed_item, feed_item
from prdigest.store.facts_store import get_facts
from prdigest.store.store import Store
from prdigest.words import Lang, labels

if TYPE_CHECKING:  # the linked context comes with the (optional) LLM narrator
    from prdigest.pipeline.linked_context import IssueSource

# PRs read (and, with an LLM, narrated concurrently) at a time by feeds and publishing.
PAGE_SIZE = 50


def current_facts(store: Store, pr: PullRequest) -> Facts:
    """The PR's facts: stored when current, else analyzed (and stored) now."""
    return ensure_facts(store, pr.repository, pr.number)


def stored_or_current_facts(store: Store, pr: PullRequest) -> Facts:
    """The PR's stored facts even from older analyzers (what ``prdigest analyze`` stored), or
    facts analyzed now when it has none: what a server shows without re-analyzing on view."""
    return get_facts(store, pr.repository, pr.number) or current_facts(store, pr)


def narrative_for(
    store: Store,
    pr: PullRequest,
    facts: Facts,
    lang: Lang,
    length: Length,
    llm: LLMConfig | None,
    *,
    refresh: bool = False,
    shown_model: str | None = None,
    related: list[RelatedNote] | None = None,
    prepared: PreparedPR | None = None,
    issues: IssueSource | None = None,
) -> Narrative:
    """The PR's narrative (cached). A caller narrating one PR in several languages and lengths
    passes ``related`` (several queries) and ``prepared`` (`pipeline.narrate.prepare`) read once."""
    if related is None:
        related = related_from_store(store, pr.repository, pr.number)
    return narrate(
        store,
        pr,
        facts,
        related,
        lang,
        length,
        llm,
        refresh=refresh,
        shown_model=shown_model,
        prepared=prepared,
        issues=issues,
    )


def warm_narratives(
    store: Store,
    prs: list[tuple[PullRequest, Facts]],
    languages: list[Lang],
    lengths: list[Length],
    llm: LLMConfig | None,
    *,
    refresh: bool = False,
    issues: IssueSource | None = None,
) -> None:
    """Narrate many PRs at once through the LLM, at most ``llm.concurrency`` in flight.

    The narratives land in the store's cache, so the (sequential) rendering that follows
    makes no call. Without an LLM there is nothing to wait on and nothing is done here:
    the extractive narrator is CPU-bound and gains nothing from threads.

    Ctrl-C cancels the calls in flight (their clients are closed) and re-raises at once: the
    workers are daemon threads, so the process never waits for a slow server to answer.
    """
    if llm is None or not prs:
        return
    import queue
    import threading

    from prdigest.pipeline.narrate import llm_module

    jobs: queue.SimpleQueue[tuple[PullRequest, Facts, Lang, Length]] = queue.SimpleQueue()
    for pr, facts in prs:
        for lang in languages:
            for length in lengths:
                jobs.put((pr, facts, lang, length))
    failures: list[BaseException] = []

    def work() -> None:
        while not llm_module().cancelled():
            try:
                pr, facts, lang, length = jobs.get_nowait()
            except queue.Empty:
                return
            try:
                narrative_for(store, pr, facts, lang, length, llm, refresh=refresh, issues=issues)
            except FATAL as exc:  # the database failing stops everything: the main thread raises it
                failures.append(exc)
                return
            except Exception:
                continue

    workers = [threading.Thread(target=work, name=f"narrate-{n}", daemon=True) for n in range(max(1, llm.concurrency))]
    for worker in workers:
        worker.start()
    try:
        for worker in workers:
            while worker.is_alive():
                worker.join(0.1)  # a timed join lets Ctrl-C through
    except KeyboardInterrupt:
        llm_module().cancel_all()
        raise
    if failures:
        raise failures[0]


def report_for(
    store: Store,
    repository: str,
    number: int,
    lang: Lang,
    length: Length,
    llm: LLMConfig | None,
    *,
    refresh: bool = False,
    issues: IssueSource | None = None,
) -> Report:
    pr = store.get_pr(repository, number)
    facts = current_facts(store, pr)
    narrative = narrative_for(store, pr, facts, lang, length, llm, refresh=refresh, issues=issues)
    ledger = ledger_links(store, repository, number, facts)
    return build_report(pr, facts, narrative, lang, length, ledger=ledger)


def feed_for(
    store: Store,
    repository: str,
    lang: Lang,
    llm: LLMConfig | None,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
    limit: int | None = None,
    refresh: bool = False,
    issues: IssueSource | None = None,
) -> Feed:
    """The feed of a repository, read a page of PRs at a time (memory stays flat). A PR that
    fails (see `pipeline.item_failures`) gets an item saying it could not be written and why
    (``verdict`` None); the others are written."""
    summaries = {s.number: s for s in store.list_prs(repository=repository, since=since, until=until, limit=limit)}
    items: list[FeedItem] = []

    def fail(number: int, exc: Exception) -> None:
        summary = summaries[number]
        when = (summary.merged_at, summary.created_at)
        items.append(failed_item(repository, number, summary.title, when, summary.state, failure_reason(exc), lang))

    numbers = list(summaries)
    for start in range(0, len(numbers), PAGE_SIZE):
        known: list[tuple[PullRequest, Facts]] = []
        for number in numbers[start : start + PAGE_SIZE]:
            try:
                pr = store.get_pr(repository, number)
                known.append((pr, current_facts(store, pr)))
            except Exception as exc:
                raise_unless_item_failure(exc)
                fail(number, exc)
        # Refreshed here once; the sequential pass below reads what this stored.
        warm_narratives(store, known, [lang], ["brief"], llm, refresh=refresh, issues=issues)
        for pr, facts in known:
            try:
                items.append(feed_item(pr, facts, narrative_for(store, pr, facts, lang, "brief", llm), lang))
            except Exception as exc:
                raise_unless_item_failure(exc)
                fail(pr.number, exc)
    return assemble_feed(repository, items, lang, since=since, until=until, limit=limit)


def failed_items(feed: Feed) -> list[ItemFailure]:
    """The feed's items that could not be written, with why."""
    lab = labels(feed.lang)
    prefix = f"{lab.text('item_failed')}{lab.text('colon')}"
    return [
        ItemFailure(item.number, item.paragraph.removeprefix(prefix)) for item in feed.items if item.verdict is None
    ]


def rendered_report(
    store: Store,
    repository: str,
    number: int,
    lang: Lang,
    length: Length,
    fmt: str,
    llm: LLMConfig | None,
    *,
    refresh: bool = False,
    issues: IssueSource | None = None,
) -> str:
    """The report rendered in ``fmt``; without an LLM it is also stored for
    `prdigest.pipeline.quick.cached_report` (SQLite), under the epoch its inputs were read in.

    Making a report may write (facts analyzed now, a narrative cached), which moves the epoch:
    it is then made once more from what is now stored, and kept if nobody wrote meanwhile."""
    from prdigest.pipeline.quick import code_fingerprint
    from prdigest.render.formats import report_format
    from prdigest.store.report_cache_store import report_epoch, save_report

    render = report_format(fmt).render
    epoch = report_epoch(store) if llm is None else None
    text = render(report_for(store, repository, number, lang, length, llm, refresh=refresh, issues=issues))
    if epoch is None:
        return text
    now = report_epoch(store)
    if now is None:
        return text
    if now != epoch:
        epoch = now
        text = render(report_for(store, repository, number, lang, length, llm))
    save_report(store, repository, number, (lang, length, fmt), code_fingerprint(), epoch, text)
    return text
