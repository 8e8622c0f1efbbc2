"""Builds the reading feed of one repository (`prdigest.models.feed.Feed`): one item per PR,
newest first, verdict first then why."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from prdigest.facts_view.gaps import file_gap_notes, gap_notes
from prdigest.models.facts import Facts
from prdigest.models.feed import Feed, FeedItem
from prdigest.models.narrative import Narrative
from prdigest.models.pullrequest import PullRequest
from prdigest.words import CATALOG, Catalog, Lang


def feed_item(
    pr: PullRequest, facts: Facts, narrative: Narrative, lang: Lang, *, catalog: Catalog = CATALOG
) -> FeedItem:
    lab = catalog.labels(lang)
    label = lab.verdict(facts.verdict.level.value)
    paragraph = " ".join(narrative.feed_paragraph.split())
    if not paragraph.startswith(label):
        paragraph = f"{label}{lab.text('verdict_stop')}{paragraph}".strip()
    # A verdict on a partial file list says so, whichever narrator wrote the paragraph (the
    # extractive one says it among its reasons).
    if narrative.narrator != "extractive":
        notes = file_gap_notes(facts, catalog.labels(lang))
        paragraph = catalog.phrases(lang).sentences([paragraph, *notes]) if notes else paragraph
    return FeedItem(
        repository=pr.repository,
        number=pr.number,
        title=" ".join((narrative.feed_title or pr.title).split()),
        original_title=pr.title,
        url=pr.url,
        author=pr.author,
        state=pr.state.value,
        merged_at=pr.merged_at,
        created_at=pr.created_at,
        verdict=facts.verdict.level,
        verdict_label=label,
        paragraph=paragraph,
        one_line=narrative.one_line,
        narrator=narrative.narrator,
        gaps=gap_notes(facts, lab),
    )


def failed_item(
    repository: str,
    number: int,
    title: str,
    when: tuple[datetime | None, datetime | None],
    state: str,
    reason: str,
    lang: Lang,
    *,
    catalog: Catalog = CATALOG,
) -> FeedItem:
    """The item of a PR whose item could not be written: it says so, and why.

    ``when`` is (merged_at, created_at), as stored: the item keeps its place in the feed."""
    lab = catalog.labels(lang)
    label = lab.text("item_failed")
    return FeedItem(
        repository=repository,
        number=number,
        title=" ".join(title.split()),
        original_title=title,
        state=state,
        merged_at=when[0],
        created_at=when[1],
        verdict=None,
        verdict_label=label,
        paragraph=f"{label}{lab.text('colon')}{' '.join(reason.split())}",
    )


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def in_window(when: datetime | None, since: datetime | None, until: datetime | None) -> bool:
    """Since inclusive, until exclusive; undated PRs only when no window is set."""
    when = _utc(when)
    if when is None:
        return since is None and until is None
    since_utc, until_utc = _utc(since), _utc(until)
    return (since_utc is None or when >= since_utc) and (until_utc is None or when < until_utc)


def build_feed(
    repository: str,
    entries: Iterable[tuple[PullRequest, Facts, Narrative]],
    lang: Lang,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
    limit: int | None = None,
    failed: Iterable[FeedItem] = (),
    catalog: Catalog = CATALOG,
) -> Feed:
    """The feed of ``entries``, plus the ``failed`` items (`failed_item`) in their places."""
    items = [feed_item(pr, facts, narrative, lang, catalog=catalog) for pr, facts, narrative in entries]
    return assemble_feed(repository, [*items, *failed], lang, since=since, until=until, limit=limit)


def assemble_feed(
    repository: str,
    items: Iterable[FeedItem],
    lang: Lang,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
    limit: int | None = None,
) -> Feed:
    """The feed of items made one by one with `feed_item` or `failed_item` (a caller streaming
    many PRs keeps only the items, not the records behind them)."""
    kept = [item for item in items if in_window(item.when, since, until)]
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    kept.sort(key=lambda i: (_utc(i.when) or epoch, i.number), reverse=True)
    if limit is not None:
        kept = kept[:limit]
    stamps = [stamp for stamp in (_utc(i.when) for i in kept) if stamp is not None]
    updated = max(stamps, default=None)
    return Feed(repository=repository, lang=lang, since=since, until=until, updated=updated, items=kept)
