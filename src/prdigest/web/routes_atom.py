"""An Atom feed per repository: ``/repos/{owner}/{name}/feed.atom``.

Built with ElementTree so every untrusted string is escaped; characters XML 1.0 cannot
carry (control characters from odd PR text) are dropped first.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated
from xml.etree import ElementTree

from fastapi import APIRouter, Depends, Request
from starlette.responses import Response

from prdigest.web.context import web_context
from prdigest.web.params import FeedQuery, NameParam, OwnerParam, feed_query
from prdigest.web.routes_feed import load_feed
from prdigest.web.schemas import FeedItem, FeedPage
from prdigest.web.templating import repo_path, with_query

router = APIRouter()
ATOM_NS = "http://www.w3.org/2005/Atom"
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_VERDICT_WORDS = {
    "zh": {"read-in-depth": "值得精读", "quick-read": "值得快速精读", "skip": "不值得精读"},
    "en": {"read-in-depth": "Read in depth", "quick-read": "Quick read", "skip": "Skip"},
}


def xml_text(value: str) -> str:
    return _NOT_XML.sub("", value)


def _stamp(value: datetime | None) -> str:
    moment = (value or datetime(1970, 1, 1)).replace(tzinfo=UTC)
    return moment.isoformat().replace("+00:00", "Z")


def _child(parent: ElementTree.Element, tag: str, text: str | None = None, **attrs: str) -> ElementTree.Element:
    element = ElementTree.SubElement(parent, f"{{{ATOM_NS}}}{tag}", attrs)
    if text is not None:
        element.text = xml_text(text)
    return element


def _entry(feed: ElementTree.Element, item: FeedItem, base: str, lang: str) -> None:
    entry = _child(feed, "entry")
    _child(entry, "title", item.feed_title or item.title)
    _child(entry, "link", href=base + item.url)
    _child(entry, "id", f"{base}{repo_path(item.repository)}/pulls/{item.number}")
    _child(entry, "updated", _stamp(item.date))
    if item.author:
        _child(_child(entry, "author"), "name", item.author)
    verdict = _VERDICT_WORDS[lang].get(item.verdict or "", "")
    summary = " ".join(x for x in (verdict, item.feed_paragraph or item.reason or "") if x)
    _child(entry, "summary", summary or item.title)
    for tag in item.risk_tags:
        _child(entry, "category", term=tag)


def atom_document(page: FeedPage, base: str) -> bytes:
    ElementTree.register_namespace("", ATOM_NS)
    feed = ElementTree.Element(f"{{{ATOM_NS}}}feed")
    _child(feed, "title", f"prdigest: {page.repository}")
    _child(feed, "id", base + repo_path(page.repository))
    _child(feed, "link", href=base + with_query(repo_path(page.repository), lang=page.lang))
    _child(feed, "link", rel="self", href=base + page.atom_url)
    newest = max((item.date for item in page.items if item.date is not None), default=None)
    _child(feed, "updated", _stamp(newest))
    for item in page.items:
        _entry(feed, item, base, page.lang)
    return bytes(ElementTree.tostring(feed, encoding="utf-8", xml_declaration=True))


@router.get("/repos/{owner}/{name}/feed.atom", include_in_schema=False)
def atom_feed(
    request: Request, owner: OwnerParam, name: NameParam, query: Annotated[FeedQuery, Depends(feed_query)]
) -> Response:
    page = load_feed(web_context(request), f"{owner}/{name}", query)
    base = str(request.base_url).rstrip("/")
    return Response(atom_document(page, base), media_type="application/atom+xml; charset=utf-8")
