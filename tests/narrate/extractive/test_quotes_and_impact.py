"""Quotes read as the author's words (no Markdown, no repeated lead, no colon-ended
fragments), related-work evidence only when it says more than the reference, one risk
sentence per probe, and impacts that name what a user calls."""

from __future__ import annotations

import pytest

from prdigest.models.facts import (
    Evidence,
    Facts,
    FileFact,
    FilesFacts,
    Reference,
    ReferencesFacts,
    RisksFacts,
    RiskTag,
    SymbolChange,
    SymbolsFacts,
)
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.extractive import narrate_extractive
from prdigest.narrate.extractive.text import key_sentences, sentences, summary_sentence
from prdigest.words import Lang

REPO = "acme/widgets"
SOURCE = FileFact(path="widgets/cache.py", category="source", module="cache", additions=30, deletions=5)


def _pr(body: str) -> PullRequest:
    return PullRequest(repository=REPO, number=7, title="fix: widget cache", body=body)


def _facts(**parts: object) -> Facts:
    files = parts.pop("files", [SOURCE])
    assert isinstance(files, list)
    return Facts(repository=REPO, number=7, files=FilesFacts(files=files, total_files=len(files)), **parts)  # type: ignore[arg-type]


def test_motivation_quotes_render_markdown() -> None:
    body = (
        "## Motivation\n\n"
        "The cache broke in [Nightly run #353](https://github.com/acme/widgets/actions/runs/99) because the key "
        "ignored `dtype` (see https://github.com/acme/widgets/issues/41).\n\n"
        '<img width="800" alt="chart" src="https://github.com/user-attachments/assets/1" />\n\n'
        "![profile](https://example.com/p.png)\n\n"
        "It crashes on **every** H100 run with `x<y>` shapes.\n\n"
        "Signed-off-by: Dev <dev@example.com>\n"
    )
    text = narrate_extractive(_pr(body), _facts(), [], "en", "full").motivation
    assert "The cache broke in Nightly run #353 because the key ignored `dtype` (see #41)." in text
    assert "H100" not in text  # one quote at most: the one that says why
    for markup in ("](", "https://", "<img", "![", "**", "Signed-off-by", "dev@example.com"):
        assert markup not in text, markup


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_motivation_does_not_repeat_the_one_line_summary(lang: Lang) -> None:
    body = "This PR adds a context-parallel path for the delta rule.\n"
    narrative = narrate_extractive(_pr(body), _facts(), [], lang, "full")
    if lang == "zh":
        # The Chinese one-liner is built from the facts: the author's sentence is the motivation's.
        assert "context-parallel path" not in narrative.one_line
        assert "context-parallel path" in narrative.motivation
        return
    assert "context-parallel path" in narrative.one_line
    assert "context-parallel path" not in narrative.motivation
    assert narrative.motivation.startswith("Beyond the one-line summary")


def test_colon_sentences_carry_the_item_they_introduce() -> None:
    body = (
        "This PR improves the fused RMSNorm kernel by:\n\n"
        "- Deriving row parallelism from the number of scale-factor blocks.\n"
        "- Using vectorized shared-memory loads for the single-CTA path.\n"
    )
    assert summary_sentence(body) == (
        "This PR improves the fused RMSNorm kernel by: Deriving row parallelism from the number of scale-factor blocks."
    )
    text = narrate_extractive(_pr(body), _facts(), [], "en", "full").motivation
    assert "Deriving row parallelism" not in text  # already in the one-line summary
    assert "Using vectorized shared-memory loads" in text
    # A colon followed by nothing but a reference is not joined to it.
    assert key_sentences(["Cherry-picked from upstream: acme/widgets@c76ca31"], 2) == [
        "Cherry-picked from upstream: acme/widgets@c76ca31"
    ]
    assert key_sentences(
        ["Adds cold L2 and CUDA graph, needed for autotune stability:", "acme/widgets@c76ca31"], 2
    ) == ["Adds cold L2 and CUDA graph, needed for autotune stability:"]


def test_asides_and_inline_code_do_not_split_sentences() -> None:
    paragraphs = [
        "Fixes an out-of-bounds read on H100. (does not impact other archs)",
        "The `(m != -inf) ? a : b` select stays.",
    ]
    assert sentences(paragraphs) == [
        "Fixes an out-of-bounds read on H100. (does not impact other archs)",
        "The `(m != -inf) ? a : b` select stays.",
    ]


def test_test_plan_quotes_the_authors_checked_items() -> None:
    body = (
        "## Summary\n\nThe widget cache ignored the dtype, so mixed calls collided.\n\n"
        "## Test plan\n\n- [x] Full `tests/test_cache.py`: **838 passed** on H100\n"
        "- [x] I have run the hooks manually with `pre-commit run --all-files`\n"
    )
    steps = narrate_extractive(_pr(body), _facts(), [], "en", "full").implementation
    verification = steps[-1].detail
    assert "Full `tests/test_cache.py`: 838 passed on H100" in verification
    assert "pre-commit" not in verification


def test_related_evidence_is_plain_and_only_when_it_says_more() -> None:
    references = ReferencesFacts(
        references=[
            Reference(repository=REPO, number=41, relation="fixes", evidence="Fixes #41 Fixes #42"),
            Reference(repository=REPO, number=3491, evidence="- [x] https://github.com/acme/widgets/issues/3491"),
            Reference(
                repository=REPO,
                number=4048,
                evidence="- W4A16 support was introduced in [#4048](https://github.com/acme/widgets/pull/4048); "
                "Nemotron SiTU support was added in [#4394](https://github.co…",
            ),
        ]
    )
    notes = narrate_extractive(_pr("Body."), _facts(references=references), [], "en", "full").related
    by_number = {n.number: n.note for n in notes}
    assert by_number[41] == "This PR fixes #41."
    assert by_number[3491] == "This PR mentions #3491."
    assert "W4A16 support was introduced in #4048; Nemotron SiTU support was added in #4394…" in by_number[4048]
    assert "](" not in by_number[4048]
    assert "- " not in by_number[4048]


def test_risk_probes_in_one_file_are_one_sentence() -> None:
    probes = [
        Evidence(template="platform-detection-assumption.probe", params={"where": f"k.cuh:{n}", "code": "#if V"})
        for n in (136, 152, 169)
    ]
    other = Evidence(template="platform-detection-assumption.probe", params={"where": "b.py:3", "code": "x()"})
    tag = RiskTag(
        tag="platform-detection-assumption",
        label_zh="平台检测假设",
        label_en="platform detection assumption",
        evidence="",
        severity="medium",
        items=[*probes, other],
    )
    risks = narrate_extractive(_pr("Body."), _facts(risks=RisksFacts(tags=[tag])), [], "en", "full").risks
    assert len(risks) == 1
    assert risks[0].count("#if V") == 1
    assert "k.cuh:136, 152, 169" in risks[0] or "k.cuh:136, 152 and 169" in risks[0]
    assert "b.py:3" in risks[0]


def _symbol(name: str, change: str, path: str = "widgets/cache.py") -> SymbolChange:
    return SymbolChange(path=path, name=name, change=change)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_user_impact_names_what_users_call(lang: Lang) -> None:
    tool = FileFact(path="scripts/run.py", category="source", module="tools", additions=5, deletions=1)
    symbols = SymbolsFacts(
        symbols=[
            _symbol("lookup", "modified"),
            _symbol("_helper", "modified"),
            _symbol("legacy_get", "removed"),
            _symbol("Cache.evict", "added"),
            _symbol("__getattr__", "added"),
            _symbol("main", "modified", "scripts/run.py"),
        ]
    )
    impact = narrate_extractive(_pr("Body."), _facts(files=[SOURCE, tool], symbols=symbols), [], lang, "full").impact
    for named in ("`lookup`", "`legacy_get`", "`Cache.evict`"):
        assert named in impact.users
    for hidden in ("_helper", "__getattr__", "`main`"):
        assert hidden not in impact.users
    tools = "工具脚本" if lang == "zh" else "tools"
    assert tools not in impact.users.lower()
    assert tools in impact.team.lower()


def test_only_tools_changed_reaches_no_user() -> None:
    tool = FileFact(path="benchmarks/bench.py", category="source", module="benchmarks", additions=5, deletions=1)
    impact = narrate_extractive(_pr("Body."), _facts(files=[tool]), [], "en", "full").impact
    assert impact.users == "No direct effect on users."
    assert "benchmark" in impact.team.lower()


def test_a_sentence_the_body_repeats_is_quoted_once() -> None:
    # A squash of two commits with one message repeats its paragraph in the body.
    said = "Use a lock per key so two writers of one widget no longer race, instead of one lock for the whole cache."
    body = f"* Lock per key\n\n{said}\n\n* Lock per key\n\n{said.replace(' so ', '  so ')}\n\n* nice\n"
    text = narrate_extractive(_pr(body), _facts(), [], "en", "full").motivation
    assert text.count("no longer race") == 1, text
    assert key_sentences([said, said.replace(" so ", "  so ")], 5) == [said]


def test_a_rust_files_own_test_module_is_no_users_behaviour() -> None:
    source = FileFact(path="src/router.rs", category="source", module="routing", additions=12, deletions=3)
    rust = [
        SymbolChange(
            name=name, kind="function", change=change, path="src/router.rs", language="rust", method="tree-sitter"
        )
        for name, change in (
            ("strip_prefix", "modified"),
            ("tests::does_not_panic", "added"),
            ("tests::internal_error", "modified"),
        )
    ]
    impact = narrate_extractive(
        _pr("Body."), _facts(files=[source], symbols=SymbolsFacts(symbols=rust)), [], "en", "full"
    ).impact
    assert "`strip_prefix`" in impact.users
    assert "tests::" not in impact.users
    assert "does_not_panic" not in impact.users
