"""Markdown of a watch's digest (also the plain-text part of its e-mail). PR text is untrusted:
it goes through the feed's escaping (`render.markdown.inline` / `block`)."""

from __future__ import annotations

from prdigest.models.watch import Digest, DigestItem
from prdigest.render.digest_words import count_line, digest_title, empty_line, move_sentence, window_line
from prdigest.render.markdown import block, inline, when
from prdigest.words import CATALOG, Catalog


def render_digest_markdown(digest: Digest, *, catalog: Catalog = CATALOG) -> str:
    say = catalog.phrases(digest.lang).say
    lines = [f"# {inline(digest_title(digest, catalog=catalog))}", ""]
    lines += [block(f"{window_line(digest, catalog=catalog)} · {count_line(digest, catalog=catalog)}"), ""]
    if digest.empty:
        lines += [block(empty_line(digest, catalog=catalog)), ""]
    for item in digest.items:
        lines += _item(item, digest.lang, catalog)
    if digest.moves:
        lines += [f"## {inline(say('digest', 'moves'))}", ""]
        lines += [f"- {inline(move_sentence(entry, digest.lang, catalog=catalog))}" for entry in digest.moves]
        lines.append("")
    if digest.watch_url:
        colon = catalog.labels(digest.lang).text("colon")
        lines += [f"{inline(say('digest', 'watch_page'))}{colon}<{digest.watch_url}>", ""]
    return "\n".join(lines).rstrip() + "\n"


def _item(item: DigestItem, lang: str, catalog: Catalog) -> list[str]:
    say = catalog.phrases(lang).say
    lab = catalog.labels(lang)
    meta = [f"#{item.number}", when(item.date), f"**{inline(item.verdict_label)}**"]
    if item.author:
        meta.append(inline(item.author))
    lines = [f"## {inline(item.title)}", "", block(" · ".join(meta)), ""]
    lines += [block(item.one_line), ""]
    why = lab.join([inline(reason) for reason in item.why])
    lines += [f"{inline(say('digest', 'why'))}{lab.text('colon')}{why}", ""]
    lines += [
        f"[{inline(say('digest', 'full_report'))}](<{item.full_report_url}>) · "
        f"[{inline(say('digest', 'brief_report'))}](<{item.brief_report_url}>)",
        "",
    ]
    return lines
