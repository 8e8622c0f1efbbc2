"""A PR's report page: stored PR + facts (+ narrative) → Markdown, with its lineage.

Facts are read from the store, computed and cached on first view when missing. The prose
and Markdown come from ``prdigest.narrate`` / ``prdigest.render`` when those are installed
in this build; otherwise `fallback_markdown` writes a plain facts-only report so the page
still works (an adapter, not a second renderer).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from prdigest.config import LLMConfig
from prdigest.errors import AnalysisError, NarrationError
from prdigest.models.facts import Facts
from prdigest.models.narrative import Narrative
from prdigest.models.pullrequest import PullRequest
from prdigest.store.facts_store import get_facts
from prdigest.store.store import Store
from prdigest.web.lineage_view import lineage
from prdigest.web.queries import as_verdict
from prdigest.web.schemas import Lang, Length, ReportPage


def _optional(module: str, attribute: str) -> Callable[..., Any] | None:
    """A function of a sibling package, or None when this build does not have it."""
    try:
        found = getattr(importlib.import_module(module), attribute, None)
    except ImportError:
        return None
    return found if callable(found) else None


def load_facts(store: Store, repository: str, number: int) -> Facts | None:
    stored = get_facts(store, repository, number)
    if stored is not None:
        return stored
    ensure = _optional("prdigest.analysis", "ensure_facts")
    if ensure is None:
        return None
    try:
        result = ensure(store, repository, number)
    except (AnalysisError, ImportError):
        return None
    return result if isinstance(result, Facts) else None


def load_narrative(
    store: Store, llm: LLMConfig | None, pr: PullRequest, facts: Facts, lang: Lang, length: Length
) -> Narrative | None:
    """The cached narrative, or one written now (extractive unless `llm` is given)."""
    narrate = _optional("prdigest.narrate.service", "narrate")
    if narrate is None:
        return None
    related_for = _optional("prdigest.narrate.related", "related_from_store")
    related = related_for(store, pr.repository, pr.number) if related_for is not None else []
    try:
        result = narrate(store, pr, facts, related, lang, length, llm)
    except NarrationError:
        return None
    return result if isinstance(result, Narrative) else None


def report_markdown(
    pr: PullRequest, facts: Facts | None, narrative: Narrative | None, lang: Lang, length: Length
) -> str:
    build = _optional("prdigest.render.build", "build_report")
    to_markdown = next(
        (found for module, name in _MARKDOWN_RENDERERS if (found := _optional(module, name)) is not None), None
    )
    if build is not None and to_markdown is not None and facts is not None and narrative is not None:
        return str(to_markdown(build(pr, facts, narrative, lang, length)))
    return fallback_markdown(pr, facts, narrative, lang)


_MARKDOWN_RENDERERS = (
    ("prdigest.render.markdown", "render_report_markdown"),
    ("prdigest.render.markdown", "render_markdown"),
    ("prdigest.render.markdown", "to_markdown"),
    ("prdigest.render.markdown", "render"),
)

_FALLBACK_LABELS = {
    "zh": {"summary": "摘要", "motivation": "功能与动机", "risks": "风险标记", "files": "关键文件",
           "code": "关键源码片段", "pending": "尚未分析。", "none": "无"},
    "en": {"summary": "Summary", "motivation": "What and why", "risks": "Risk tags", "files": "Key files",
           "code": "Key code", "pending": "Not analyzed yet.", "none": "none"},
}  # fmt: skip


def fallback_markdown(pr: PullRequest, facts: Facts | None, narrative: Narrative | None, lang: Lang) -> str:
    words = _FALLBACK_LABELS[lang]
    lines = [f"## {words['summary']}", ""]
    if narrative is not None:
        lines += [narrative.one_line, "", narrative.recommendation, "", f"## {words['motivation']}", ""]
        lines += [narrative.motivation, ""]
    else:
        lines += [pr.body.strip() or words["none"], ""]
    if facts is None:
        return "\n".join([*lines, words["pending"]])
    lines += [f"## {words['risks']}", ""]
    tags = facts.risks.tags
    lines += [f"- {t.label_zh if lang == 'zh' else t.label_en}: {t.evidence}" for t in tags] or [words["none"]]
    lines += ["", f"## {words['files']}", ""]
    lines += [f"- `{f.path}` ({f.module}; {f.category}; {f.type})" for f in facts.files.key_files()] or [words["none"]]
    if facts.symbols.excerpts:
        lines += ["", f"## {words['code']}", ""]
        for excerpt in facts.symbols.excerpts[:5]:
            fence = "`" * max(3, _longest_backtick_run(excerpt.text) + 1)
            lines += [f"`{excerpt.path}`", "", f"{fence}diff", excerpt.text, fence, ""]
    return "\n".join(lines)


def _longest_backtick_run(value: str) -> int:
    longest = run = 0
    for char in value:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    return longest


def build_report_page(
    store: Store, llm: LLMConfig | None, repository: str, number: int, lang: Lang, length: Length
) -> ReportPage:
    pr = store.get_pr(repository, number)
    facts = load_facts(store, repository, number)
    narrative = load_narrative(store, llm, pr, facts, lang, length) if facts is not None else None
    return ReportPage(
        repository=pr.repository,
        number=pr.number,
        title=pr.title,
        state=pr.state.value,
        url=pr.url,
        lang=lang,
        length=length,
        verdict=None if facts is None else as_verdict(facts.verdict.level.value),
        risk_tags=[] if facts is None else [t.tag for t in facts.risks.tags],
        markdown=report_markdown(pr, facts, narrative, lang, length),
        facts=facts,
        narrative=narrative,
        lineage=lineage(store, repository, number),
    )
