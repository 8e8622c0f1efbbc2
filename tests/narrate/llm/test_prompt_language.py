"""The prompt gives the model risk evidence and key-file reasons in the output language."""

from __future__ import annotations

from tests.narrate.llm.conftest import sample_facts, sample_pr

from prdigest.facts_view.evidence import key_reason, risk_evidence
from prdigest.models.facts import Evidence, Facts, RisksFacts, RiskTag, VerdictFacts, VerdictReason
from prdigest.narrate.llm.prompt import build_prompt
from prdigest.words import Lang, labels

ENGLISH_EVIDENCE = "cupy-cuda13x is held at <14.1.0 in requirements/kv_connectors.txt, so fixed releases stay blocked"
ENGLISH_KEY_REASON = "core logic (quantization), 4 changed lines"
ENGLISH_REASON = "risk tags: version lock"


def _facts() -> Facts:
    facts = sample_facts()
    key = facts.files.files[0].model_copy(
        update={
            "key_reason": ENGLISH_KEY_REASON,
            "key_reason_code": "core-logic",
            "key_reason_params": {"module": "quantization", "lines": "4"},
        }
    )
    tag = RiskTag(
        tag="version-lock",
        label_zh="版本锁定",
        label_en="version lock",
        evidence=ENGLISH_EVIDENCE,
        severity="medium",
        items=[
            Evidence(
                template="version-lock.change",
                params={
                    "path": "requirements/kv_connectors.txt",
                    "package": "cupy-cuda13x",
                    "before": "",
                    "after": "<14.1.0",
                },
            )
        ],
    )
    reason = VerdictReason(
        code="dependency-decision",
        detail=ENGLISH_REASON,
        weight=1.0,
        items=[Evidence(template="dependency-decision.lock", params={"package": "cupy-cuda13x", "after": "<14.1.0"})],
    )
    return facts.model_copy(
        update={
            "files": facts.files.model_copy(update={"files": [key, *facts.files.files[1:]]}),
            "risks": RisksFacts(tags=[tag]),
            "verdict": VerdictFacts(reasons=[reason]),
        }
    )


def _user_prompt(lang: Lang) -> str:
    prompt = build_prompt(sample_pr(), _facts(), [], lang, "full", budget=6000)
    return prompt.messages[1]["content"]


def test_zh_prompt_states_the_evidence_in_chinese() -> None:
    facts = _facts()
    zh = labels("zh")
    user = _user_prompt("zh")
    sentence = risk_evidence(facts.risks.tags[0], zh)
    assert "被限定为" in sentence  # really the Chinese sentence, not the English fallback
    assert sentence in user
    assert ENGLISH_EVIDENCE not in user
    reason = key_reason(facts.files.files[0], zh)
    assert reason.startswith("核心逻辑")
    assert reason in user
    assert ENGLISH_KEY_REASON not in user
    assert ENGLISH_REASON not in user
    assert "版本锁定" in user


def test_en_prompt_states_the_evidence_in_english() -> None:
    facts = _facts()
    en = labels("en")
    user = _user_prompt("en")
    assert risk_evidence(facts.risks.tags[0], en) in user
    assert key_reason(facts.files.files[0], en) in user
    assert "被限定为" not in user
