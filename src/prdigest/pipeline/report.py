"""Build a report or a feed: load the PR from the store, make sure it has current facts,
narrate (cached), build. Shared by the CLI, the web app and publishing."""

from __future__ import annotations

from datetime import datetime

from prdigest.config import LLMConfig
from prdigest.models.facts import Facts
from prdigest.models.feed import Feed
from prdigest.models.narrative import Length, Narrative
from prdigest.models.pullrequest import PullRequest
from prdigest.models.report import Report
from prdigest.pipeline.analyze import ensure_facts
from prdigest.pipeline.ledger import ledger_links
from prdigest.pipeline.narrate import narrate
from prdigest.pipeline.related import related_from_store
from prdigest.render.build import build_report
from prdigest.render.feed import build_feed
from prdigest.store.facts_store import get_facts
from prdigest.store.store import Store
from prdigest.words import Lang


def current_facts(store: Store, pr: PullRequest) -> Facts:
    """The PR's facts: stored when current, else analyzed (and stored) now."""
    return ensure_facts(store, pr.repository, pr.number)


def stored_or_current_facts(store: Store, pr: PullRequest) -> Facts:
    """The PR's stored facts even from older analyzers (what ``prdigest analyze`` stored), or
    facts analyzed now when it has none: what a server shows without re-analyzing on view."""
    return get_facts(store, pr.repository, pr.number) or current_facts(store, pr)


def narrative_for(
    store: Store, pr: PullRequest, facts: Facts, lang: Lang, length: Length, llm: LLMConfig | None
) -> Narrative:
    related = related_from_store(store, pr.repository, pr.number)
    return narrate(store, pr, facts, related, lang, length, llm)


def warm_narratives(
    store: Store,
    prs: list[tuple[PullRequest, Facts]],
    languages: list[Lang],
    lengths: list[Length],
    llm: LLMConfig | None,
) -> None:
    """Narrate many PRs at once through the LLM, at most ``llm.concurrency`` in flight.

    The narratives land in the store's cache, so the (sequential) rendering that follows
    makes no call. Without an LLM there is nothing to wait on and nothing is done here:
    the extractive narrator is CPU-bound and gains nothing from threads.
    """
    if llm is None or not prs:
        return
    from concurrent.futures import ThreadPoolExecutor

    jobs = [(pr, facts, lang, length) for pr, facts in prs for lang in languages for length in lengths]
    with ThreadPoolExecutor(max_workers=max(1, llm.concurrency), thread_name_prefix="narrate") as pool:
        futures = [pool.submit(narrative_for, store, pr, facts, lang, length, llm) for pr, facts, lang, length in jobs]
        for future in futures:
            future.result()


def report_for(store: Store, repository: str, number: int, lang: Lang, length: Length, llm: LLMConfig | None) -> Report:
    pr = store.get_pr(repository, number)
    facts = current_facts(store, pr)
    narrative = narrative_for(store, pr, facts, lang, length, llm)
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
) -> Feed:
    known = []
    for summary in store.list_prs(repository=repository, since=since, until=until, limit=limit):
        pr = store.get_pr(repository, summary.number)
        known.append((pr, current_facts(store, pr)))
    warm_narratives(store, known, [lang], ["brief"], llm)
    entries = [(pr, facts, narrative_for(store, pr, facts, lang, "brief", llm)) for pr, facts in known]
    return build_feed(repository, entries, lang, since=since, until=until, limit=limit)
