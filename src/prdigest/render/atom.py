"""Atom 1.0 (RFC 4287) rendering of a feed, built with xml.etree so every text is escaped."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime

from prdigest.models.feed import Feed, FeedItem
from prdigest.render.html import safe_url
from prdigest.text import printable
from prdigest.words import CATALOG, Catalog

ATOM_NS = "http://www.w3.org/2005/Atom"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# XML 1.0 cannot carry these at all, even escaped; `printable` replaces the control
# characters and lone surrogates, these two non-characters are what it leaves.
_XML_BAD = re.compile("[\ufffe\uffff]")


def _xml_text(text: str) -> str:
    # The feed's own strings are already printable; attributes and callers' feeds may not be.
    return _XML_BAD.sub("\ufffd", printable(text))


def _stamp(value: datetime | None) -> str:
    value = value or _EPOCH
    utc = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%SZ")


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, f"{{{ATOM_NS}}}{tag}", {k: _xml_text(v) for k, v in attrs.items()})
    if text is not None:
        element.text = _xml_text(text)
    return element


def _repo_url(feed: Feed) -> str:
    return f"https://github.com/{feed.repository}"


def _entry_id(item: FeedItem) -> str:
    # A tag URI is stable even when the PR's URL is unknown or changes host.
    return f"tag:prdigest,2026:{item.repository}/pull/{item.number}"


def render_feed_atom(
    feed: Feed,
    *,
    self_url: str | None = None,
    catalog: Catalog = CATALOG,
    title: str | None = None,
    feed_id: str | None = None,
    alternate: str | None = None,
) -> str:
    """The feed as Atom; another document made of feed items (a watch's digest) names its own
    ``title``, ``feed_id`` and ``alternate`` page instead of the repository's."""
    lab = catalog.labels(feed.lang)
    ET.register_namespace("", ATOM_NS)
    root = ET.Element(f"{{{ATOM_NS}}}feed", {"{http://www.w3.org/XML/1998/namespace}lang": feed.lang})
    _sub(root, "id", feed_id or f"tag:prdigest,2026:{feed.repository}/feed/{feed.lang}")
    _sub(root, "title", title or lab.heading("feed", repository=feed.repository))
    _sub(root, "updated", _stamp(feed.updated))
    _sub(root, "link", href=safe_url(alternate) or _repo_url(feed), rel="alternate")
    if self_url:
        _sub(root, "link", href=self_url, rel="self")
    author = _sub(root, "author")
    _sub(author, "name", "prdigest")
    _sub(root, "generator", "prdigest")
    for item in feed.items:
        entry = _sub(root, "entry")
        _sub(entry, "id", _entry_id(item))
        _sub(entry, "title", item.title)
        _sub(entry, "updated", _stamp(item.when))
        if item.merged_at is not None:
            _sub(entry, "published", _stamp(item.merged_at))
        href = safe_url(item.url) or f"https://github.com/{item.repository}/pull/{item.number}"
        _sub(entry, "link", href=href, rel="alternate")
        if item.author:
            entry_author = _sub(entry, "author")
            _sub(entry_author, "name", item.author)
        if item.verdict is not None:
            _sub(entry, "category", term=item.verdict, label=item.verdict_label)
        _sub(entry, "summary", item.paragraph, type="text")
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + body + "\n"
