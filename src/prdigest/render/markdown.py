"""Markdown renderer of reports and feeds.

Untrusted text (titles, quotes, paths) is kept on one line and cannot open blocks, raw HTML
or links; code excerpts are fenced with a fence longer than any backtick run inside. Escapes
are kept to the characters that would do harm, so ``<14.1.0`` or ``[ci]`` read as written.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from prdigest.facts_view.markup import code
from prdigest.words import CATALOG, Catalog, Labels

if TYPE_CHECKING:
    # Types only: a report does not load the feed's models.
    from prdigest.models.feed import Feed
    from prdigest.models.report import Report

_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
# Escape only what could change the structure: `<` that may open a tag, autolink, comment or
# processing instruction; `]` that may close a link text or open a definition (`](`, `][`,
# `]:`); a backslash before punctuation (it would escape our escape). `[` alone links nothing.
_ESCAPE = re.compile(r"<(?=[A-Za-z/!?])|\](?=[(\[:])|\\(?=[!-/:-@\[-`{-~])")
# What a line may not start with: ATX headings (`#` then space or end), block quotes, list
# markers followed by a space, thematic breaks, code fences, setext underlines, raw HTML.
_BLOCK_START = re.compile(r"^(?:#{1,6}(?=\s|$)|>|[-+*](?=\s|$)|(?:[-*_]\s*){3,}$|`{3,}|~{3,}|=+\s*$)")
_ORDERED_START = re.compile(r"^(\d{1,9})[.)](?=\s|$)")
_BACKTICKS = re.compile(r"`+")


def inline(text: str) -> str:
    """One line of Markdown: whitespace collapsed; only markup-opening characters escaped,
    code spans kept verbatim."""
    text = " ".join(text.split())
    if "`" not in text:  # no code span: most texts
        return _escape(text)
    out: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(text):
        out.append(_escape(text[last : match.start()]))
        out.append(match.group(0))
        last = match.end()
    out.append(_escape(text[last:]))
    return "".join(out)


def _escape(text: str) -> str:
    if "<" not in text and "]" not in text and "\\" not in text:  # nothing `_ESCAPE` can match
        return text
    return _ESCAPE.sub(r"\\\g<0>", text)


def block(text: str) -> str:
    """An inline text that starts a line: a leading ``# ``, ``- ``, ``1. ``, ``>``, a fence or a
    rule cannot open a block."""
    line = inline(text)
    ordered = _ORDERED_START.match(line)
    if ordered:  # `\1.` would show the backslash: escape the delimiter instead
        return f"{ordered.group(1)}\\{line[ordered.end(1) :]}"
    return "\\" + line if _BLOCK_START.match(line) else line


def fence(text: str, language: str = "") -> str:
    longest = max((len(m) for m in _BACKTICKS.findall(text)), default=0)
    ticks = "`" * max(3, longest + 1)
    safe_language = re.sub(r"[^A-Za-z0-9_+-]", "", language)
    return f"{ticks}{safe_language}\n{text.rstrip()}\n{ticks}"


def when(value: datetime | None) -> str:
    if value is None:
        return "—"
    utc = value.astimezone(UTC) if value.tzinfo else value
    return utc.strftime("%Y-%m-%d %H:%M")


def _item(lab: Labels, name: str, value: str) -> str:
    return f"- {name}{lab.text('colon')}{value}"


def render_report_markdown(report: Report, *, catalog: Catalog = CATALOG) -> str:
    lab = catalog.labels(report.lang)
    h = report.header
    key = "report_full" if report.length == "full" else "report_brief"
    lines = [f"# {lab.heading(key, number=h.number)}", ""]
    lines.append(_item(lab, lab.field("repository"), code(h.repository)))
    lines.append(_item(lab, lab.field("title"), inline(h.title)))
    if report.length == "full":  # a brief keeps what finds the PR: repository, title, link
        lines.append(_item(lab, lab.field("state"), inline(h.state_label)))
        if h.author:
            lines.append(_item(lab, lab.field("author"), inline(h.author)))
        if h.merged_at is not None:
            lines.append(_item(lab, lab.field("merged_at"), when(h.merged_at)))
        elif h.created_at is not None:
            lines.append(_item(lab, lab.field("created_at"), when(h.created_at)))
    if h.url:
        lines.append(_item(lab, lab.field("url"), inline(h.url)))
    if report.coverage.notes:
        # Before any claim: what the source could not see, so no "none" below is read as proven.
        lines.append(f"- {lab.field('data_gaps')}{lab.text('colon').rstrip()}")
        lines.extend(f"  - {inline(note)}" for note in report.coverage.notes)
    lines += ["", "---", "", f"# {lab.heading('summary')}", ""]
    lines.append(_item(lab, lab.heading("one_line"), inline(report.summary.one_line)))
    lines.append(_item(lab, lab.heading("recommendation"), inline(report.summary.recommendation)))
    lines += _judgement(report, lab)
    lines += ["", f"# {lab.heading('motivation')}", "", block(report.motivation), ""]
    lines += [f"# {lab.heading('implementation')}", ""]
    if report.implementation:
        for index, step in enumerate(report.implementation, 1):
            lines.append(f"{index}. **{inline(step.title)}**{lab.text('colon')}{inline(step.detail)}")
    else:
        lines.append(block(lab.text("no_steps")))
    brief = report.length == "brief"
    lines += ["", f"{lab.heading('key_files')}{lab.text('colon').rstrip()}", ""]
    for f in report.key_files:
        role = f": {inline(f.role)}" if f.role else ""
        if brief:  # the file and what it does there; the facets are the full report's
            lines.append(f"- {code(f.path)}{role}")
            continue
        facets = [
            f"{lab.field('module')} {inline(f.module_label)}",
            f"{lab.field('category')} {inline(lab.lookup('categories', f.category))}",
            f"{lab.field('type')} {inline(lab.lookup('types', f.type))}",
        ]
        if f.symbols:
            more = lab.more_symbols(len(f.symbols), f.symbols_more)
            facets.append(f"{lab.field('symbols')} {', '.join(code(name) for name in f.symbols)}{_tail(more)}")
        meta = lab.text("lparen") + lab.text("semicolon").join(facets) + lab.text("rparen")
        lines.append(f"- {code(f.path)}{meta}{role}")
    lines.append("")
    # The brief keeps every section's substance, shorter (the narrative cut it), but no code.
    lines += _symbols_code_discussion(report, lab, code_excerpts=not brief)
    lines += [f"# {lab.heading('risks_impact')}", ""]
    lines += _risks_and_impact(report, lab, brief=brief)
    lines += [f"# {lab.heading('related')}", ""]
    if not report.related:
        lines.append(block(lab.text("no_related")))
    for rel in report.related:
        other = None if rel.repository.lower() == h.repository.lower() else rel.repository
        ref = rel.target_label or lab.related_target(rel.kind, rel.number, other)
        title = f" {inline(rel.title)}" if rel.title else ""
        relation = f"{lab.text('lparen')}{inline(rel.relation_label)}{lab.text('rparen')}"
        lines.append(f"- {inline(ref)}{title}{relation}: {inline(rel.note)}")
    if report.dependency_history:
        lines += ["", f"## {lab.heading('dependency_history')}", ""]
        lines += [f"- {inline(item.text)}" for item in report.dependency_history]
    lines += ["", "---", ""]
    lines.append(_narrator_line(report, lab))
    if report.omitted_from_prompt:
        omitted = ", ".join(report.omitted_from_prompt)
        lines.append("")
        lines.append(f"{lab.heading('omitted')}{lab.text('colon')}{inline(omitted)}")
    return "\n".join(lines).rstrip() + "\n"


def _tail(text: str) -> str:
    """`inline` for a phrase that follows code (" and 16 more"): its leading space is kept."""
    return (" " if text[:1].isspace() else "") + inline(text)


def _judgement(report: Report, lab: Labels) -> list[str]:
    """The LLM's grounded judgement, under the summary; offline reports have none."""
    judgement = report.judgement
    if judgement is None:
        return []
    lines: list[str] = []
    for key, point in (
        ("lesson", judgement.lesson),
        ("watch_next", judgement.watch_next),
        ("next_action", judgement.action),
    ):
        if point is not None:
            lines.append(_item(lab, lab.heading(key), inline(point.text)))
    argued = judgement.argued_verdict
    if argued is not None:
        facts = f"{report.verdict.label}{lab.text('lparen')}{lab.text('facts_verdict')}{lab.text('rparen')}"
        said = f"{facts}{lab.text('semicolon')}{lab.text('argued_by_narrator')}{argued.label}"
        lines.append(_item(lab, lab.heading("verdict"), inline(said) + lab.text("colon") + inline(argued.reason)))
    return lines


def _symbols_code_discussion(report: Report, lab: Labels, *, code_excerpts: bool) -> list[str]:
    """Key symbols, key code (the full report's: a brief has no code block) and the discussion."""
    names = list(dict.fromkeys(s.name for s in report.key_symbols))
    more = lab.more_symbols(len(names), report.key_symbols_more) if names else ""
    # Names are code: shown as code spans, as the HTML report does.
    symbols = ", ".join(code(name) for name in names) + _tail(more) if names else inline(lab.text("none_identified"))
    lines = [f"{lab.heading('key_symbols')}{lab.text('colon')}{symbols}", ""]
    if code_excerpts:
        lines += _key_code(report, lab)
    lines += [f"# {lab.heading('discussion')}", "", block(report.discussion.overview), ""]
    for hl in report.discussion.highlights:
        who = f"{lab.text('lparen')}{inline(hl.who)}{lab.text('rparen')}" if hl.who else ""
        lines.append(f"- **{inline(hl.topic)}**{who}{lab.text('colon')}{inline(hl.summary)}")
    if report.discussion.highlights:
        lines.append("")
    for thread in report.discussion.threads:
        note = f" — {inline(thread.note)}" if thread.note else ""
        lines.append(f"- {inline(thread.topic)} ({inline(thread.kind_label)}): {inline(thread.outcome_label)}{note}")
    if report.discussion.threads:
        lines.append("")
    return lines


def _key_code(report: Report, lab: Labels) -> list[str]:
    lines = [f"## {lab.heading('key_code')}", ""]
    if not report.key_code:
        lines += [block(lab.text("no_excerpts")), ""]
    for excerpt in report.key_code:
        lines += [f"### {code(excerpt.path)}", ""]
        if excerpt.role:
            lines += [block(excerpt.role), ""]
        if excerpt.note:
            lines += [block(excerpt.note), ""]
        lines += [fence(excerpt.text, "diff"), ""]
    return lines


def _risks_and_impact(report: Report, lab: Labels, *, brief: bool) -> list[str]:
    """Risks, impact and tags. The brief's impact is one line, its first part the narrative
    told (on users, else on the system), and it names tags only when there are some."""
    lines = [f"- {lab.heading('risks')}{lab.text('colon').rstrip()}"]
    for risk in report.risks.risks or [_no_risks(report, lab)]:
        lines.append(f"  - {inline(risk)}")
    impact = report.risks.impact
    parts = [("users", impact.users), ("system", impact.system), ("team", impact.team)]
    if brief:
        told = [(name, value) for name, value in parts[:2] if value][:1]
        for name, value in told:
            lines.append(
                f"- {lab.heading('impact')}{lab.text('colon')}**{lab.field(name)}**{lab.text('colon')}{inline(value)}"
            )
    else:
        lines.append(f"- {lab.heading('impact')}{lab.text('colon').rstrip()}")
        for name, value in parts:
            lines.append(f"  - **{lab.field(name)}**{lab.text('colon')}{inline(value or lab.text('no_impact'))}")
    if report.risks.tags or not brief:
        tags = lab.text("tag_separator").join(inline(t.label) for t in report.risks.tags)
        lines.append(f"- {lab.heading('risk_tags')}{lab.text('colon')}{tags or lab.text('none_identified')}")
    return [*lines, ""]


def _no_risks(report: Report, lab: Labels) -> str:
    """What an empty risk list means: nothing found, or nothing could be found on a partial file list."""
    return lab.text("no_risks" if report.coverage.file_list == "complete" else "risks_file_list_incomplete")


def _narrator_line(report: Report, lab: Labels) -> str:
    n = report.narrator
    name = lab.text("narrator_extractive") if n.narrator == "extractive" else lab.text("narrator_llm")
    parts = [f"{lab.field('narrator')}{lab.text('colon')}{inline(name)}"]
    if n.model:
        parts.append(f"{lab.field('model')}{lab.text('colon')}{code(n.model)}")
    if n.calls:
        parts.append(f"{lab.field('calls')} {n.calls}, {lab.field('tokens')} {n.tokens_in}/{n.tokens_out}")
    if n.fallback_sections:
        parts.append(f"{lab.field('fallback_sections')}{lab.text('colon')}{inline(', '.join(n.fallback_sections))}")
    return f"*{lab.heading('narrator')}*{lab.text('colon')}" + lab.text("semicolon").join(parts)


def render_feed_markdown(feed: Feed, *, catalog: Catalog = CATALOG) -> str:
    lab = catalog.labels(feed.lang)
    lines = [f"# {inline(lab.heading('feed', repository=feed.repository))}", ""]
    if feed.since or feed.until:
        window = f"{when(feed.since) if feed.since else '…'} — {when(feed.until) if feed.until else '…'}"
        lines += [f"{lab.field('window')}{lab.text('colon')}{window}", ""]
    if not feed.items:
        lines.append(block(lab.text("no_feed_items")))
    for item in feed.items:
        lines += [f"## {inline(item.title)}", ""]
        meta = [f"#{item.number}", when(item.when)]
        if item.author:
            meta.append(inline(item.author))
        if item.url:
            meta.append(inline(item.url))
        lines += [block(" · ".join(meta)), ""]
        if item.one_line and item.one_line != item.title:  # the gist in the reader's language
            lines += [block(item.one_line), ""]
        lines += [block(item.paragraph), ""]
    return "\n".join(lines).rstrip() + "\n"
