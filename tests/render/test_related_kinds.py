"""Related work names each target by what it is: "PR #N", "Issue #N" (议题), or plain "#N"."""

from __future__ import annotations

import re
from typing import Any

import pytest

from prdigest.models.facts import Reference, ReferencesFacts
from prdigest.narrate.extractive import narrate_extractive
from prdigest.render.build import build_report
from prdigest.render.html import render_report_html
from prdigest.render.markdown import render_report_markdown

EXPECTED = {
    "en": ["- PR #501", "- Issue #502", "- #503", "- Issue other/repo#504"],
    "zh": ["- PR #501", "- 议题 #502", "- #503", "- 议题 other/repo#504"],
}


def _facts_with_kinds(seeds: Any) -> tuple[Any, Any]:
    pr, facts = seeds.humming_pr(), seeds.humming_facts()
    refs = [
        Reference(repository=pr.repository, number=501, target_kind="pr", relation="follow-up-to", evidence="x"),
        Reference(repository=pr.repository, number=502, target_kind="issue", relation="fixes", evidence="y"),
        Reference(repository=pr.repository, number=503, target_kind="unknown", relation="mentions", evidence="z"),
        Reference(repository="other/repo", number=504, target_kind="issue", relation="mentions", evidence="w"),
    ]
    return pr, facts.model_copy(update={"references": ReferencesFacts(references=refs)})


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_markdown_and_html_name_the_target_kind(seeds: Any, lang: str) -> None:
    pr, facts = _facts_with_kinds(seeds)
    report = build_report(pr, facts, narrate_extractive(pr, facts, [], lang, "full"), lang, "full")  # type: ignore[arg-type]
    assert [r.kind for r in report.related] == ["pr", "issue", "unknown", "issue"]
    related_part = render_report_markdown(report).split("\n# ")[-1]
    lines = [line for line in related_part.splitlines() if line.startswith("- ")]
    for line, start in zip(lines, EXPECTED[lang], strict=True):
        assert re.match(re.escape(start) + r"\D", line), (line, start)
    html = render_report_html(report)
    for start in EXPECTED[lang]:
        assert re.search(re.escape(f"<li>{start[2:]}") + r"\D", html), start
    assert "PR #502" not in html
    assert "PR #503" not in html
