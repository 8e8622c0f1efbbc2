"""Seed 000: cupy cap → exclusion; config-only; no review comments, issue comments and bot notices."""

from __future__ import annotations

from typing import Any

import pytest

from prdigest.facts_view.evidence import risk_evidence
from prdigest.models.narrative import Narrative
from prdigest.narrate.extractive import narrate_extractive
from prdigest.narrate.extractive.text import collapse
from prdigest.render.build import build_report
from prdigest.render.markdown import render_report_markdown
from prdigest.words import Lang, labels


def _all_text(narrative: Narrative) -> str:
    return narrative.model_dump_json()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_dependency_facts_appear(seeds: Any, lang: Lang) -> None:
    n = narrate_extractive(seeds.cupy_pr(), seeds.cupy_facts(), [], lang, "full")
    step = n.implementation[0]
    assert "cupy-cuda13x" in step.title
    assert "`<14.1.0` → `!=14.1.0`" in step.detail
    assert "requirements/kv_connectors.txt" in step.detail
    assert "14.1.1" in step.detail
    if lang == "zh":  # an English PR read in Chinese: the one-liner is built from the facts
        assert n.one_line == "将 cupy-cuda13x 的约束由 `<14.1.0` 放宽为 `!=14.1.0`，放行 14.1.1"
    else:
        assert "cupy-cuda13x `<14.1.0` → `!=14.1.0`" in n.one_line
    assert n.file_roles[0].path == "requirements/kv_connectors.txt"
    assert "14.1.0" in n.file_roles[0].role


def test_english_step_reads_naturally(seeds: Any) -> None:
    n = narrate_extractive(seeds.cupy_pr(), seeds.cupy_facts(), [], "en", "full")
    assert n.implementation[0].title == "Relax the cupy-cuda13x constraint"
    assert n.implementation[0].detail.startswith(
        "`<14.1.0` → `!=14.1.0` in requirements/kv_connectors.txt; the upper bound becomes an exact exclusion; "
        "newly admits 14.1.1."
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_motivation_quotes_body_verbatim_without_boilerplate(seeds: Any, lang: Lang) -> None:
    pr = seeds.cupy_pr()
    n = narrate_extractive(pr, seeds.cupy_facts(), [], lang, "full")
    body = collapse(pr.body)
    open_q, close_q = ("「", "」") if lang == "zh" else ("“", "”")
    quotes = [part.split(close_q)[0] for part in n.motivation.split(open_q)[1:]]
    assert quotes, n.motivation
    for quote in quotes:
        assert quote.rstrip("…") in body
    # One quote at most, the evidence: the sentence that says the cause.
    assert len(quotes) == 1, quotes
    assert "because CuPy 14.1.0 imports pytest" in quotes[0]
    assert "markdownlint" not in n.motivation
    assert "[ ]" not in n.motivation
    assert "Checklist" not in n.motivation
    # the cited PRs, with their relation
    assert "#43530" in n.motivation
    assert "#44258" in n.motivation


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_symbols_no_excerpts_no_invented_review(seeds: Any, lang: Lang) -> None:
    pr, facts = seeds.cupy_pr(), seeds.cupy_facts()
    n = narrate_extractive(pr, facts, [], lang, "brief")
    assert n.excerpt_notes == []
    # the only thread is the issue-comment question; bots never become highlights
    assert [h.who for h in n.discussion_highlights] == ["mmangkad"]
    assert "mergify" not in _all_text(n)
    md = render_report_markdown(build_report(pr, facts, n, lang, "full"))
    if lang == "zh":
        assert "关键符号：未识别" in md
        assert "本 PR 没有 review 评论" in md
        assert "2 条机器人通知" in md
    else:
        assert "Key symbols: none identified" in md
        assert "No review comments" in md


def test_no_highlights_when_there_is_no_discussion(seeds: Any) -> None:
    facts = seeds.cupy_facts()
    facts.discussion.threads = []
    n = narrate_extractive(seeds.cupy_pr(), facts, [], "zh", "full")
    assert n.discussion_highlights == []
    assert n.thread_lines == []
    report = build_report(seeds.cupy_pr(), facts, n, "zh", "full")
    assert "暂无高价值评论线程" in report.discussion.overview


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_risks_come_from_tags_with_evidence(seeds: Any, lang: Lang) -> None:
    facts = seeds.cupy_facts()
    n = narrate_extractive(seeds.cupy_pr(), facts, [], lang, "full")
    assert len(n.risks) == len(facts.risks.tags)
    for tag, risk in zip(facts.risks.tags, n.risks, strict=True):
        label = tag.label_zh if lang == "zh" else tag.label_en
        assert label.lower() in risk.lower()
        assert risk_evidence(tag, labels(lang)) in risk
        assert tag.items, "the analyzers give language-neutral evidence"
    constraint = next(r for r in n.risks if "14.1.0" in r)
    assert "`<14.1.0`" in constraint
    assert "`!=14.1.0`" in constraint
    assert "cupy-cuda13x cupy-cuda13x" not in " ".join(n.risks)
    # Each fact once: the admitted version is the risks' to say, not the user impact's again.
    assert any("14.1.1" in r for r in n.risks)
    assert "14.1.1" not in n.impact.users
    assert "cupy-cuda13x" in n.impact.users


def test_verdict_first_then_why(seeds: Any) -> None:
    zh = narrate_extractive(seeds.cupy_pr(), seeds.cupy_facts(), [], "zh", "brief")
    en = narrate_extractive(seeds.cupy_pr(), seeds.cupy_facts(), [], "en", "brief")
    assert zh.feed_paragraph.startswith("值得速览。做出了一项依赖决策：cupy-cuda13x 由 `<14.1.0` 改为 `!=14.1.0`")
    assert "上限改为精确排除" in zh.feed_paragraph
    assert en.feed_paragraph.startswith(
        "Worth a quick read. It makes a dependency decision: cupy-cuda13x goes from `<14.1.0` to `!=14.1.0`"
    )
    # A bare "root cause" mention is not sold as a debugging lesson.
    assert "root cause" not in zh.feed_paragraph
    assert "14.1.1" in zh.recommendation


def test_merges_are_reported_from_commits(seeds: Any) -> None:
    n = narrate_extractive(seeds.cupy_pr(), seeds.cupy_facts(), [], "en", "full")
    merge = next(s for s in n.implementation if s.title == "Merge the base branch")
    assert "f373bc70" in merge.detail
    assert "239e2178" in merge.detail
    verify = n.implementation[-1]
    assert "Verified that 14.1.0 and 14.1.1 both exist on PyPI" in verify.detail


def test_brief_is_shorter_than_full(seeds: Any) -> None:
    pr, facts = seeds.humming_pr(), seeds.humming_facts()
    full = narrate_extractive(pr, facts, [], "zh", "full")
    brief = narrate_extractive(pr, facts, [], "zh", "brief")
    assert len(brief.implementation) < len(full.implementation)
    assert len(brief.excerpt_notes) == 0 < len(full.excerpt_notes)  # a brief shows no code
    assert len(brief.discussion_highlights) <= 2
