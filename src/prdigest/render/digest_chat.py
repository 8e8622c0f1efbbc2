"""A watch's digest as the JSON body chat webhooks take: Slack's ``text`` (the fallback every
tool shows) and ``blocks`` (header, one section per PR, the dependency moves). Mattermost and
Rocket.Chat read ``text``; Discord's Slack-compatible endpoint reads both.

Slack reads ``&``, ``<`` and ``>`` in mrkdwn as markup: PR text escapes them, so a title
cannot make a link or a mention."""

from __future__ import annotations

from typing import Any

from prdigest.models.watch import Digest, DigestItem
from prdigest.render.digest_words import count_line, digest_subject, digest_title, empty_line, move_sentence
from prdigest.words import CATALOG, Catalog

# Slack accepts at most 50 blocks a message and 3,000 characters a section.
_MAX_ITEMS = 40
_MAX_SECTION = 2900


def mrkdwn(text: str) -> str:
    return " ".join(text.split()).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _link(url: str, label: str) -> str:
    # A URL holding | or > would end the link early; ours are built from quoted parts.
    return f"<{url}|{mrkdwn(label)}>" if "|" not in url and ">" not in url else mrkdwn(label)


def _section(item: DigestItem, lang: str, catalog: Catalog) -> dict[str, Any]:
    say = catalog.phrases(lang).say
    lab = catalog.labels(lang)
    lines = [
        f"*{_link(item.full_report_url, f'#{item.number} {item.title}')}* · {mrkdwn(item.verdict_label)}",
        mrkdwn(item.one_line),
        f"_{mrkdwn(say('digest', 'why') + lab.text('colon') + lab.join(item.why))}_",
        f"{_link(item.full_report_url, say('digest', 'full_report'))} · "
        f"{_link(item.brief_report_url, say('digest', 'brief_report'))}",
    ]
    return {"type": "section", "text": {"type": "mrkdwn", "text": "\n".join(lines)[:_MAX_SECTION]}}


def digest_payload(digest: Digest, *, catalog: Catalog = CATALOG) -> dict[str, Any]:
    say = catalog.phrases(digest.lang).say
    blocks: list[dict[str, Any]] = [
        {"type": "header", "text": {"type": "plain_text", "text": digest_title(digest, catalog=catalog)[:150]}},
        {"type": "context", "elements": [{"type": "mrkdwn", "text": mrkdwn(count_line(digest, catalog=catalog))}]},
    ]
    if digest.empty:
        blocks.append(
            {"type": "section", "text": {"type": "mrkdwn", "text": mrkdwn(empty_line(digest, catalog=catalog))}}
        )
    for item in digest.items[:_MAX_ITEMS]:
        blocks.append(_section(item, digest.lang, catalog))
    left = len(digest.items) - _MAX_ITEMS
    if left > 0:
        more = mrkdwn(say("digest", "more_items", count=left))
        text = _link(digest.watch_url, more) if digest.watch_url else more
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": text}]})
    if digest.moves:
        moves = "\n".join(f"• {mrkdwn(move_sentence(entry, digest.lang, catalog=catalog))}" for entry in digest.moves)
        text = f"*{mrkdwn(say('digest', 'moves'))}*\n{moves}"
        blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": text[:_MAX_SECTION]}})
    return {"text": mrkdwn(digest_subject(digest, catalog=catalog)), "blocks": blocks}
