"""Build a report or a feed: load the PR from the store, make sure it has current facts,
narrate (cached), build. Shared by the CLI, the web app and publishing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from prdigest.config import LLMConfig
from prdigest.models.facts import Facts
from prdigest.models.feed import Feed
from prdigest.models.narrative import Length, Narrative, RelatedNote
from prdigest.models.pullrequest import PullRequest
from prdigest.models.report import Report
from prdigest.pipeline.analyze import ensure_facts
from prdigest.pipeline.narrate import narrate
from prdigest.pipeline.related import related_from_store
from prdigest.render.build import build_report
from prdigest.render.feed import assemble_feed, feed_item
from prdigest.store.facts_store import get_facts
from prdigest.store.store import Store
from prdigest.words import Lang

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
    digests: tuple[str, str] | None = None,
) -> Narrative:
    """The PR's narrative (cached). A caller narrating one PR in several languages and lengths
    passes ``related`` (several queries) and ``digests`` (`input_digests`) read once."""
    if related is None:
        related = related_from_store(store, pr.repository, pr.number)
    return narrate(
        store, pr, facts, related, lang, length, llm, refresh=refresh, shown_model=shown_model, digests=digests
    )


def warm_narratives(
    store: Store,
    prs: list[tuple[PullRequest, Facts]],
    languages: list[Lang],
    lengths: list[Length],
    llm: LLMConfig | None,
    *,
    refresh: bool = False,
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
                narrative_for(store, pr, facts, lang, length, llm, refresh=refresh)
            except BaseException as exc:  # handed to the main thread, which raises it
                failures.append(exc)
                return

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
) -> Report:
    pr = store.get_pr(repository, number)
    facts = current_facts(store, pr)
    narrative = narrative_for(store, pr, facts, lang, length, llm, refresh=refresh)
    return build_report(pr, facts, narrative, lang, length)


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
) -> Feed:
    summaries = store.list_prs(repository=repository, since=since, until=until, limit=limit)
    numbers = [s.number for s in summaries]
    items = [
        feed_item(pr, facts, narrative_for(store, pr, facts, lang, "brief", llm), lang)
        for pr, facts in pages_of_prs(store, repository, numbers, [lang], ["brief"], llm, refresh=refresh)
    ]
    return assemble_feed(repository, items, lang, since=since, until=until, limit=limit)


def pages_of_prs(
    store: Store,
    repository: str,
    numbers: list[int],
    languages: list[Lang],
    lengths: list[Length],
    llm: LLMConfig | None,
    *,
    refresh: bool = False,
) -> Iterator[tuple[PullRequest, Facts]]:
    """Each PR with its current facts, read a page at a time so that memory stays flat
    however many PRs there are (a record holds whole file contents); with an LLM, each
    page's narratives are warmed concurrently (refreshed once here) before its PRs are
    handed out, so the sequential pass that follows reads what this stored."""
    for start in range(0, len(numbers), PAGE_SIZE):
        page = [store.get_pr(repository, number) for number in numbers[start : start + PAGE_SIZE]]
        known = [(pr, current_facts(store, pr)) for pr in page]
        warm_narratives(store, known, languages, lengths, llm, refresh=refresh)
        yield from known
