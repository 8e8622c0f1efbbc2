"""Golden outputs of every renderer, both languages, on fixed records.

Regenerate with ``PRDIGEST_UPDATE_GOLDEN=1 pytest tests/render/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from prdigest.models.narrative import Length
from prdigest.narrate.extractive import narrate_extractive
from prdigest.render.atom import render_feed_atom
from prdigest.render.build import build_report
from prdigest.render.feed import build_feed
from prdigest.render.html import render_feed_html, render_report_html
from prdigest.render.json_schema import render_feed_json, render_report_json
from prdigest.render.markdown import render_feed_markdown, render_report_markdown
from prdigest.words import Lang

GOLDEN = Path(__file__).with_name("golden")
UPDATE = os.environ.get("PRDIGEST_UPDATE_GOLDEN") == "1"

REPORT_RENDERERS = {"md": render_report_markdown, "html": render_report_html, "json": render_report_json}
FEED_RENDERERS = {
    "md": render_feed_markdown,
    "html": render_feed_html,
    "json": render_feed_json,
    "atom.xml": render_feed_atom,
}


def _check(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"missing golden file {path}; run with PRDIGEST_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"


@pytest.mark.parametrize("case", ["cupy", "humming"])
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("length", ["full", "brief"])
@pytest.mark.parametrize("fmt", sorted(REPORT_RENDERERS))
def test_report_golden(seeds: Any, case: str, lang: Lang, length: Length, fmt: str) -> None:
    pr, facts = getattr(seeds, f"{case}_pr")(), getattr(seeds, f"{case}_facts")()
    narrative = narrate_extractive(pr, facts, [], lang, length)
    report = build_report(pr, facts, narrative, lang, length)
    _check(f"report_{case}_{lang}_{length}.{fmt}", REPORT_RENDERERS[fmt](report))


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("fmt", sorted(FEED_RENDERERS))
def test_feed_golden(seeds: Any, lang: Lang, fmt: str) -> None:
    entries = []
    for case in ("humming", "cupy"):
        pr, facts = getattr(seeds, f"{case}_pr")(), getattr(seeds, f"{case}_facts")()
        entries.append((pr, facts, narrate_extractive(pr, facts, [], lang, "brief")))
    feed = build_feed("vllm-project/vllm", entries, lang)
    _check(f"feed_{lang}.{fmt}", FEED_RENDERERS[fmt](feed))


SEED_HEADINGS = [
    "PR #43530 完整报告",
    "执行摘要",
    "一句话",
    "推荐动作",
    "功能与动机",
    "实现拆解",
    "关键文件",
    "关键符号",
    "关键源码片段",
    "评论区精华",
    "风险与影响",
    "风险",
    "影响",
    "风险标记",
    "关联脉络",
]


def test_zh_full_report_has_every_seed_heading_in_order(seeds: Any) -> None:
    pr, facts = seeds.humming_pr(), seeds.humming_facts()
    report = build_report(pr, facts, narrate_extractive(pr, facts, [], "zh", "full"), "zh", "full")
    text = render_report_markdown(report)
    position = 0
    for heading in SEED_HEADINGS:
        found = text.find(heading, position)
        assert found >= 0, f"{heading} missing or out of order"
        position = found + len(heading)
    for heading in (
        "# PR #43530 完整报告",
        "# 执行摘要",
        "# 功能与动机",
        "# 实现拆解",
        "## 关键源码片段",
        "# 评论区精华",
        "# 风险与影响",
        "# 关联脉络",
    ):
        assert f"\n{heading}\n" in f"\n{text}"
