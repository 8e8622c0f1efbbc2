"""Atom of a watch's digest: its items as feed entries, written by the feed's Atom writer.
Each entry's summary is the one-liner, then why it matched; it links to the full report."""

from __future__ import annotations

from datetime import UTC

from prdigest.models.feed import Feed, FeedItem
from prdigest.models.watch import Digest
from prdigest.render.atom import render_feed_atom
from prdigest.render.digest_words import digest_title
from prdigest.words import CATALOG, Catalog


def digest_feed(digest: Digest, *, catalog: Catalog = CATALOG) -> Feed:
    lab = catalog.labels(digest.lang)
    say = catalog.phrases(digest.lang).say
    items = []
    for item in digest.items:
        why = f"{say('digest', 'why')}{lab.text('colon')}{lab.join(item.why)}"
        summary = catalog.phrases(digest.lang).sentences([item.paragraph, why])
        items.append(
            FeedItem(
                repository=item.repository,
                number=item.number,
                title=item.title,
                original_title=item.title,
                url=item.full_report_url,
                author=item.author,
                state=item.state,
                created_at=item.date,
                verdict=item.verdict,
                verdict_label=item.verdict_label,
                paragraph=summary,
                one_line=item.one_line,
            )
        )
    dates = [
        item.date.replace(tzinfo=UTC) if item.date.tzinfo is None else item.date for item in digest.items if item.date
    ]
    return Feed(repository=digest.repository, lang=digest.lang, updated=max(dates, default=None), items=items)


def render_digest_atom(digest: Digest, *, self_url: str | None = None, catalog: Catalog = CATALOG) -> str:
    return render_feed_atom(
        digest_feed(digest, catalog=catalog),
        self_url=self_url,
        catalog=catalog,
        title=digest_title(digest, catalog=catalog),
        feed_id=f"tag:prdigest,2026:watch/{digest.watch}/{digest.lang}",
        alternate=digest.watch_url or None,
    )
