"""A watch's digest: the PRs of its slice not delivered yet (or dated since a day), verdict
first then newest, each with its one-liner, verdict, why it matched and links to its full and
brief reports; and the ledger's moves of the watched packages in those PRs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from prdigest.config import LLMConfig
from prdigest.facts_view.watch_match import watch_matches
from prdigest.models.facts import VerdictLevel
from prdigest.models.watch import LEVEL_ORDER, Digest, DigestItem, Watch, WatchMatch
from prdigest.pipeline.report import narrative_for
from prdigest.render.digest_words import match_sentence
from prdigest.render.feed import feed_item
from prdigest.render.site_links import pr_report_url, watch_url
from prdigest.store.ledger_store import ledger_entries
from prdigest.store.store import Store
from prdigest.store.watch_store import Candidate, digest_candidates


@dataclass(frozen=True)
class BuiltDigest:
    digest: Digest
    pull_request_ids: tuple[int, ...]  # what marking it read records as delivered
    looked_at: tuple[tuple[int, str], ...] = ()  # (PR id, facts key) of the PRs that did not match


def build_digest(
    store: Store,
    watch: Watch,
    site_url: str,
    llm: LLMConfig | None,
    *,
    since: datetime | None = None,
    now: datetime | None = None,
) -> BuiltDigest:
    """The digest of ``watch``: since ``since`` when given, else what it has not delivered yet."""
    found: list[tuple[Candidate, list[WatchMatch]]] = []
    unmatched: list[tuple[int, str]] = []
    for candidate in digest_candidates(store, watch, since=since, unread=since is None):
        matched = watch_matches(watch, candidate.facts, candidate.author)
        if matched:
            found.append((candidate, matched))
        else:
            unmatched.append((candidate.pull_request_id, candidate.facts_key))
    items = [_item(store, watch, site_url, llm, candidate, matched) for candidate, matched in found]
    rank = {level: position for position, level in enumerate(reversed(LEVEL_ORDER))}
    epoch = datetime(1970, 1, 1)
    # Newest first within a verdict: sort by date descending, then stably by verdict.
    items.sort(key=lambda item: (_naive(item.date) or epoch, item.number), reverse=True)
    items.sort(key=lambda item: rank[VerdictLevel(item.verdict)])
    numbers = {item.number for item in items}
    moves = (
        [entry for entry in ledger_entries(store, watch.repository, watch.packages) if entry.number in numbers]
        if watch.packages and numbers
        else []
    )
    digest = Digest(
        watch=watch.name,
        repository=watch.repository,
        lang=watch.lang,
        since=since,
        unread=since is None,
        generated_at=now or datetime.now(UTC),
        items=items,
        moves=moves,
        watch_url=watch_url(site_url, watch.name, watch.lang),
    )
    return BuiltDigest(digest, tuple(candidate.pull_request_id for candidate, _ in found), tuple(unmatched))


def _naive(value: datetime | None) -> datetime | None:
    if value is None or value.tzinfo is None:
        return value
    return value.astimezone(UTC).replace(tzinfo=None)


def _item(
    store: Store, watch: Watch, site_url: str, llm: LLMConfig | None, candidate: Candidate, matched: list[WatchMatch]
) -> DigestItem:
    pr = store.get_pr(watch.repository, candidate.number)
    facts = candidate.facts
    narrative = narrative_for(store, pr, facts, watch.lang, "brief", llm)
    shown = feed_item(pr, facts, narrative, watch.lang)
    assert shown.verdict is not None  # an analyzed PR always has one
    return DigestItem(
        repository=watch.repository,
        number=pr.number,
        title=shown.title,
        url=pr.url,
        author=pr.author,
        state=shown.state,
        date=candidate.date,
        verdict=shown.verdict,
        verdict_label=shown.verdict_label,
        one_line=shown.one_line or shown.title,
        paragraph=shown.paragraph,
        matches=matched,
        why=[match_sentence(match, watch.lang) for match in matched],
        full_report_url=pr_report_url(site_url, watch.repository, pr.number, watch.lang, "full"),
        brief_report_url=pr_report_url(site_url, watch.repository, pr.number, watch.lang, "brief"),
    )
