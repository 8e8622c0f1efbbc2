"""An Atom feed per repository: ``/repos/{owner}/{name}/feed.atom``.

The document is written by `prdigest.render.atom` (the same builder as ``prdigest feed``);
this route only maps the web feed page onto `prdigest.models.feed.Feed`. Entries link to the
web report pages. PRs not analyzed yet have no verdict and are left out of the Atom feed.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from starlette.responses import Response

from prdigest.models.facts import VerdictLevel
from prdigest.models.feed import Feed
from prdigest.models.feed import FeedItem as AtomItem
from prdigest.render.atom import render_feed_atom
from prdigest.render.formats import FEED_FORMATS
from prdigest.web.context import web_context
from prdigest.web.params import FeedQuery, NameParam, OwnerParam, feed_query
from prdigest.web.routes_feed import load_feed
from prdigest.web.schemas import FeedItem, FeedPage
from prdigest.words import Lang, labels

router = APIRouter()


def atom_item(item: FeedItem, base: str, lang: Lang) -> AtomItem | None:
    if item.verdict is None:
        return None
    lab = labels(lang)
    label = lab.verdict(item.verdict)
    why = " ".join((item.feed_paragraph or item.reason or "").split())
    # The render package's rule: the paragraph opens with the verdict label, then says why.
    paragraph = why if why.startswith(label) else f"{label}{lab.text('verdict_stop')}{why}".strip()
    return AtomItem(
        repository=item.repository,
        number=item.number,
        title=item.feed_title or item.title,
        original_title=item.title,
        url=base + item.url,
        author=item.author,
        state=item.state,
        merged_at=item.date if item.state == "merged" else None,
        created_at=item.date,
        verdict=VerdictLevel(item.verdict),
        verdict_label=label,
        paragraph=paragraph,
    )


def atom_feed_model(page: FeedPage, base: str) -> Feed:
    items = [found for item in page.items if (found := atom_item(item, base, page.lang)) is not None]
    updated = max((item.date for item in page.items if item.date is not None), default=None)
    return Feed(repository=page.repository, lang=page.lang, updated=updated, items=items)


@router.get("/repos/{owner}/{name}/feed.atom", include_in_schema=False)
async def atom_feed(
    request: Request, owner: OwnerParam, name: NameParam, query: Annotated[FeedQuery, Depends(feed_query)]
) -> Response:
    page = load_feed(web_context(request), f"{owner}/{name}", query)
    base = str(request.base_url).rstrip("/")
    document = render_feed_atom(atom_feed_model(page, base), self_url=base + page.atom_url)
    return Response(document.encode("utf-8"), media_type=FEED_FORMATS["atom"].media_type)
