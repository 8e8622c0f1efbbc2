"""The judgement section: lesson, what to watch, action and an argued verdict, each kept only
when it rests on fact ids the prompt gave, shown beside (never instead of) the facts' verdict."""

from __future__ import annotations

import json
from typing import Any

from tests.narrate.llm.conftest import (
    FakeLLMServer,
    completion,
    good_answer,
    make_config,
    sample_facts,
    sample_fallback,
    sample_pr,
)

from prdigest.models.facts import Facts, VerdictFacts, VerdictLevel
from prdigest.models.narrative import ArguedVerdict, Judgement, Narrative
from prdigest.narrate.llm import LLMNarrator
from prdigest.render.build import build_report
from prdigest.render.html import render_report_html
from prdigest.render.markdown import render_report_markdown
from prdigest.words import Lang


def judged(level: VerdictLevel = VerdictLevel.QUICK_READ) -> Facts:
    return sample_facts().model_copy(update={"verdict": VerdictFacts(level=level, score=0.5)})


def narrate(server: FakeLLMServer, facts: Facts, judgement: dict[str, Any], lang: Lang = "en") -> Narrative:
    server.queue.append(completion(json.dumps(good_answer(judgement=judgement))))
    narrator = LLMNarrator(make_config(server))
    try:
        return narrator.narrate(sample_pr(), facts, [], lang, "full", fallback=sample_fallback(lang))
    finally:
        narrator.close()


def point(text: str, *facts: str) -> dict[str, Any]:
    return {"text": text, "facts": list(facts)}


def test_points_are_kept_with_known_fact_ids_and_dropped_without(llm_server: FakeLLMServer) -> None:
    facts = judged()
    narrative = narrate(
        llm_server,
        facts,
        {
            "lesson": point("A revert that leaves the failure in place points at another cause.", "related:42540"),
            "watch_next": point("Whether users without humming get a clear error.", "thread:1", "made-up:1"),
            "action": point("Pin everything forever.", "risk:not-a-tag"),
            "verdict": {"level": "", "reason": "", "facts": []},
        },
    )
    assert narrative.narrator == "llm"
    judgement = narrative.judgement
    assert judgement is not None
    assert judgement.lesson is not None
    assert judgement.lesson.facts == ["related:42540"]
    # An unknown id beside a known one is only removed.
    assert judgement.watch_next is not None
    assert judgement.watch_next.facts == ["thread:1"]
    assert judgement.action is None
    assert judgement.verdict is None  # "" agrees with the facts
    assert narrative.grounding_rejections == ["judgement.action: rule no-known-fact (cited risk:not-a-tag)"]

    report = build_report(sample_pr(), facts, narrative, "en", "full")
    markdown = render_report_markdown(report)
    assert "- What a reader learns: A revert that leaves the failure in place points at another cause." in markdown
    assert "- What to watch next: Whether users without humming get a clear error." in markdown
    assert "Pin everything forever" not in markdown
    assert report.judgement is not None
    assert report.judgement.lesson is not None
    assert report.judgement.lesson.facts == ["related:42540"]


def test_an_argued_verdict_one_step_away_is_shown_beside_the_facts_verdict(llm_server: FakeLLMServer) -> None:
    facts = judged(VerdictLevel.QUICK_READ)
    reason = "The revert chain teaches how to find the real cause of a CI failure."
    narrative = narrate(
        llm_server,
        facts,
        {"verdict": {"level": "read-in-depth", "reason": reason, "facts": ["related:42540", "verdict"]}},
    )
    report = build_report(sample_pr(), facts, narrative, "en", "full")
    assert report.verdict.level == VerdictLevel.QUICK_READ  # the facts' verdict stands
    assert report.judgement is not None
    assert report.judgement.argued_verdict is not None
    assert report.judgement.argued_verdict.level == VerdictLevel.READ_IN_DEPTH
    markdown = render_report_markdown(report)
    assert (
        "- Verdict: Worth a quick read (the facts' verdict); the narrator argues for Worth reading in depth: " + reason
    ) in markdown
    html = render_report_html(report)
    assert "the narrator argues for" in html
    assert reason in html

    # The Chinese report says the same (rendered from a grounded judgement; the language check
    # of zh prose is test_prompt_language's).
    argued = ArguedVerdict(level="skip", reason="只是改名。", facts=["files"])
    zh = sample_fallback("zh").model_copy(update={"narrator": "llm", "judgement": Judgement(verdict=argued)})
    zh_markdown = render_report_markdown(build_report(sample_pr(), facts, zh, "zh", "full"))
    assert "- 阅读建议：值得速览（事实给出的结论）；解读者主张不必细读：只是改名。" in zh_markdown


def test_an_argued_verdict_is_rejected_by_its_rule(llm_server: FakeLLMServer) -> None:
    cases = [
        ({"level": "read-in-depth", "reason": "Big.", "facts": ["files"]}, "verdict-too-far (skip → read-in-depth)"),
        ({"level": "must-read", "reason": "Big.", "facts": ["files"]}, "verdict-unknown-level (must-read)"),
        ({"level": "quick-read", "reason": "", "facts": ["files"]}, "verdict-no-reason"),
        ({"level": "quick-read", "reason": "It teaches.", "facts": ["made-up"]}, "verdict-no-reason"),
    ]
    for verdict, rule in cases:
        narrative = narrate(llm_server, judged(VerdictLevel.SKIP), {"verdict": verdict})
        assert narrative.judgement is None
        assert len(narrative.grounding_rejections) == 1
        assert f"judgement.verdict: rule {rule}" in narrative.grounding_rejections[0]


def test_an_answer_without_judgement_is_no_failure_and_makes_no_retry(llm_server: FakeLLMServer) -> None:
    answer = good_answer()
    del answer["judgement"]
    llm_server.queue.append(completion(json.dumps(answer)))
    narrator = LLMNarrator(make_config(llm_server))
    try:
        narrative = narrator.narrate(sample_pr(), judged(), [], "en", "full", fallback=sample_fallback())
    finally:
        narrator.close()
    assert len(llm_server.requests) == 1
    assert narrative.fallback_sections == []
    assert narrative.judgement is None
    # An offline-shaped narrative keeps its stored JSON as it was: no judgement key at all.
    assert "judgement" not in json.loads(narrative.model_dump_json())


def test_the_prompt_gives_the_facts_ids_and_asks_for_the_judgement(llm_server: FakeLLMServer) -> None:
    narrate(llm_server, judged(), {})
    user = llm_server.user_prompts()[0]
    for fact_id in ("[files]", "[file:vllm/quantization/humming.py]", "[verdict]", "[related:42540]", "[thread:1]"):
        assert fact_id in user
    assert "judgement{lesson{text,facts[str]}" in user
    schema = llm_server.requests[0]["response_format"]["json_schema"]["schema"]
    assert "judgement" in schema["required"]


def test_each_rejection_prints_one_line_naming_its_rule(llm_server: FakeLLMServer, caplog: Any) -> None:
    with caplog.at_level("WARNING", logger="prdigest.narrate.llm.narrator"):
        narrate(llm_server, judged(), {"action": point("Pin everything forever.")})
    lines = [r.getMessage() for r in caplog.records if "grounding dropped" in r.getMessage()]
    assert lines == [
        "LLM narration of vllm-project/vllm#43530 (en, full): grounding dropped "
        "judgement.action: rule no-known-fact (cited nothing)"
    ]
