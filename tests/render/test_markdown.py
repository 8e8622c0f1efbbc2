"""Markdown safety: untrusted text stays on one line, cannot open blocks/HTML/links; fences hold."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from prdigest.facts_view.markup import code
from prdigest.narrate.extractive import narrate_extractive
from prdigest.render.build import build_report
from prdigest.render.markdown import block, fence, inline, render_report_markdown


def _html(markdown: str) -> str:
    return str(MarkdownIt("commonmark", {"html": True}).render(markdown))


def test_inline_keeps_one_line_and_escapes_html_and_links() -> None:
    assert inline("a\nb\r\n\tc") == "a b c"
    assert inline("<script>x</script>") == "\\<script>x\\</script>"
    assert "<a " not in _html(inline("[x](javascript:alert(1))"))
    assert "<a " not in _html(inline("see <https://evil.example> and ![i](x) and [a][b]"))
    assert "<!--" not in _html(inline("<!-- hidden --> <?php x ?>"))
    assert "<a " not in _html(inline("\\](x) [y\\](z)"))
    assert inline("keep `<14.1.0` as code") == "keep `<14.1.0` as code"


def test_inline_escapes_only_what_could_become_markup() -> None:
    assert inline("cupy-cuda13x<14.1.0 → !=14.1.0") == "cupy-cuda13x<14.1.0 → !=14.1.0"
    assert inline("[cap-to-exclusion] and a < b") == "[cap-to-exclusion] and a < b"
    assert inline("fixes #110 in C:\\path") == "fixes #110 in C:\\path"
    assert block("#110 · 2024-01-01") == "#110 · 2024-01-01"
    assert block("+2/−1") == "+2/−1"
    assert block("1.5 seconds") == "1.5 seconds"


def test_a_reference_definition_cannot_be_injected() -> None:
    text = block("[a]: https://evil.example") + "\n\nsee [a]"
    assert "<a " not in _html(text)


def test_block_cannot_start_a_heading_or_list() -> None:
    for start in ("# title", "- item", "1. item", "2) item", "> quote", "+ x", "=== x", "---", "```py", "~~~", "<div>"):
        html = MarkdownIt("commonmark").render(block(start))
        assert html.startswith("<p>"), (start, html)


def test_code_span_and_fence_outlast_backticks() -> None:
    assert code("a`b") == "``a`b``"
    assert code("`x`") == "`` `x` ``"
    fenced = fence("x = '```'\n````\n", "diff")
    assert fenced.startswith("`````diff\n")
    assert fenced.endswith("\n`````")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_inline_text_renders_as_one_paragraph_without_html(text: str) -> None:
    html = MarkdownIt("commonmark").render("- title: " + inline(text))
    assert html.count("<li>") == 1
    assert "<script" not in html.replace("&lt;script", "")
    assert "<a " not in html


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.sampled_from("`a\n~ "), max_size=60))
def test_fence_contains_any_text(text: str) -> None:
    tokens = MarkdownIt("commonmark").parse(fence(text, "diff"))
    fences = [t for t in tokens if t.type == "fence"]
    assert len(fences) == 1
    assert fences[0].content == text.rstrip() + "\n"


def test_hostile_report_keeps_its_structure(seeds: Any) -> None:
    pr, facts = seeds.hostile_pr(), seeds.hostile_facts()
    md = render_report_markdown(build_report(pr, facts, narrate_extractive(pr, facts, [], "en", "full"), "en", "full"))
    headings = [line for line in md.splitlines() if line.startswith("#")]
    assert headings == [
        "# PR #7 full report",
        "# Executive summary",
        "# What and why",
        "# Implementation",
        "## Key code",
        "### `src/<b>x</b>.py`",
        "# Discussion highlights",
        "# Risks and impact",
        "# Related work",
    ]
    html = MarkdownIt("commonmark", {"html": True}).render(md)
    assert "<script>" not in html.replace("<code>", "").split("<pre>")[0]
