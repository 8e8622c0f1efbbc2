"""Seed 002: humming restored, cupy capped, gemini's correctness comment unanswered."""

from __future__ import annotations

from typing import Any

import pytest

from prdigest.models.narrative import RelatedNote
from prdigest.narrate.extractive import narrate_extractive
from prdigest.words import Lang

HUMMING = "vllm/model_executor/layers/quantization/humming.py"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_symbols_and_modules_in_steps(seeds: Any, lang: Lang) -> None:
    n = narrate_extractive(seeds.humming_pr(), seeds.humming_facts(), [], lang, "full")
    text = " ".join(f"{s.title} {s.detail}" for s in n.implementation)
    assert "`assert_humming_available`" in text
    assert "`HummingConfig.__init__`" in text
    assert HUMMING in text
    assert "`cupy-cuda13x<14.1.0`" in text
    assert "`humming-kernels[cu13]==0.1.2`" in text
    module = "量化模块" if lang == "zh" else "quantization"
    assert any(module in s.title for s in n.implementation)


def test_unanswered_correctness_comment_is_a_highlight_and_a_risk(seeds: Any) -> None:
    n = narrate_extractive(seeds.humming_pr(), seeds.humming_facts(), [], "zh", "full")
    first = n.discussion_highlights[0]
    assert first.who == "gemini-code-assist[bot]"
    assert "NameError" in first.summary
    assert "无人回应" in first.summary
    assert any("gemini-code-assist[bot]" in r and "正确性问题" in r and "无人回应" in r for r in n.risks)
    assert "未获回应的正确性问题" in n.recommendation
    kinds = {(t.kind, t.outcome) for t in n.thread_lines}
    assert kinds == {("correctness", "no-reply"), ("design", "answered")}


def test_duplicated_rewrite_is_named_on_both_files(seeds: Any) -> None:
    n = narrate_extractive(seeds.humming_pr(), seeds.humming_facts(), [], "en", "full")
    roles = {r.path: r.role for r in n.file_roles}
    assert "`docker/Dockerfile`" in roles["setup.py"]
    assert "`setup.py`" in roles["docker/Dockerfile"]
    assert any("duplicated logic across files" in r.lower() for r in n.risks)


def test_related_merges_store_links_with_references(seeds: Any) -> None:
    related = [
        RelatedNote(
            repository="vllm-project/vllm",
            number=42540,
            title="Add humming-kernels support",
            relation="restores",
            note="#43492 temporarily reverted #42540",
        ),
        RelatedNote(
            repository="vllm-project/vllm",
            number=44301,
            title="Relax cupy pin",
            relation="followed-up-by",
            note="PR #43530 capped cupy-cuda13x at <14.1.0",
        ),
    ]
    n = narrate_extractive(seeds.humming_pr(), seeds.humming_facts(), related, "en", "full")
    by_number = {r.number: r for r in n.related}
    assert set(by_number) == {42540, 44301, 43492, 43528}
    assert by_number[42540].title == "Add humming-kernels support"
    assert by_number[42540].note.startswith("This PR restores the change of #42540")
    assert by_number[44301].note.startswith("#44301 follows up on this PR")
    zh = narrate_extractive(seeds.humming_pr(), seeds.humming_facts(), related, "zh", "full")
    assert {r.number: r for r in zh.related}[44301].note.startswith("#44301 是本 PR 的后续")


def test_nothing_invented_for_an_empty_pr(seeds: Any) -> None:
    from prdigest.models.facts import Facts
    from prdigest.models.pullrequest import PullRequest

    pr = PullRequest(repository="o/r", number=1, title="Empty")
    n = narrate_extractive(pr, Facts(repository="o/r", number=1), [], "en", "full")
    assert n.discussion_highlights == []
    assert n.thread_lines == []
    assert n.related == []
    assert n.file_roles == []
    assert n.excerpt_notes == []
    assert n.risks == []
    assert "The PR body is empty" in n.motivation
    assert n.feed_paragraph.startswith("Not worth a close read.")
