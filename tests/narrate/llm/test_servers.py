"""The LLM narrator against local servers that behave like the ones people run (vLLM, Ollama,
the llama.cpp server, hosted OpenAI-compatible APIs) and like models that misbehave: answers in
the schema, in the wrong language, with dropped or invented list items, with HTML and script
links, 400s on ``response_format`` or on ``max_tokens``, no usage. What is stored (the
`Narrative`) and what each format renders is asserted."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from tests.narrate.llm.conftest import (
    FakeLLMServer,
    Scripted,
    completion,
    error,
    good_answer,
    make_config,
    sample_facts,
    sample_fallback,
    sample_pr,
)

from prdigest.models.narrative import Narrative, RelatedNote
from prdigest.narrate.llm import LLMNarrator
from prdigest.narrate.llm.capabilities import Capabilities, RunMemory, endpoint_key
from prdigest.render.build import build_report
from prdigest.render.formats import REPORT_FORMATS
from prdigest.words import Lang

ZH_ANSWER: dict[str, Any] = {
    "one_line": "把 CuPy 限制在 14.1.0 以下，并在 CUDA 上恢复 humming 量化。",
    "recommendation": "建议合并，并跟进 CuPy 14.1.1 的发布。",
    "motivation": "#42540 被回滚；真正的原因是 CuPy 14.1.0 在导入时引入了 pytest。",
    "implementation": [{"title": "改用平台判断", "detail": "`HummingConfig.__init__` 不再直接断言。"}],
    "file_roles": [{"path": "vllm/quantization/humming.py", "role": "量化入口。"}],
    "excerpt_notes": [{"path": "vllm/quantization/humming.py", "note": "平台判断取代了断言。"}],
    "discussion_highlights": [{"topic": "报错信息", "who": "gemini-code-assist", "summary": "用户会看到 NameError。"}],
    "thread_lines": [{"thread": 1, "topic": "报错信息退化", "note": "作者没有回复。"}],
    "risks": [{"item": 1, "text": "没有安装 humming 的用户会看到 NameError。"}],
    "impact": {"users": "安装更清楚。", "system": "CuPy 被限制。", "team": "需要跟踪 CuPy 14.1.1。"},
    "related": [{"number": 42540, "note": "恢复了 #42540 加入的功能。"}],
    "feed_title": "限制 CuPy，恢复 humming",
    "feed_paragraph": "值得快速精读：一个依赖治理的例子。",
}


def narrate(
    server: FakeLLMServer,
    lang: Lang = "en",
    fallback: Narrative | None = None,
    memory: RunMemory | None = None,
    **config: Any,
) -> Narrative:
    narrator = LLMNarrator(make_config(server, **config), sleep=lambda _s: None, memory=memory)
    try:
        return narrator.narrate(
            sample_pr(), sample_facts(), [], lang, "full", fallback=fallback or sample_fallback(lang)
        )
    finally:
        narrator.close()


def rendered(narrative: Narrative, lang: Lang = "en") -> dict[str, str]:
    report = build_report(sample_pr(), sample_facts(), narrative, lang, "full")
    return {name: fmt.render(report) for name, fmt in REPORT_FORMATS.items()}


def test_vllm_like_server_answers_in_the_schema(llm_server: FakeLLMServer) -> None:
    def vllm(payload: dict[str, Any]) -> Scripted:
        schema = payload["response_format"]["json_schema"]["schema"]
        assert payload["response_format"]["json_schema"]["strict"] is True
        assert schema["additionalProperties"] is False
        return completion(json.dumps({key: good_answer()[key] for key in schema["required"]}))

    llm_server.respond = vllm
    memory = RunMemory()
    result = narrate(llm_server, memory=memory)
    assert result.narrator == "llm"
    assert result.fallback_sections == []
    assert result.llm_failure == ""
    assert remembered(memory, llm_server).response_format == "json_schema"


def remembered(memory: RunMemory, server: FakeLLMServer) -> Capabilities:
    known = memory.recall(endpoint_key(server.base_url), "test-model")
    assert known is not None
    return known


def test_hosted_api_wanting_max_completion_tokens(llm_server: FakeLLMServer) -> None:
    def hosted(payload: dict[str, Any]) -> Scripted:
        if "max_tokens" in payload:
            message = "Unsupported parameter: 'max_tokens'. Use 'max_completion_tokens' instead."
            return error(400, message=message)
        return completion(json.dumps(good_answer()))

    llm_server.respond = hosted
    memory = RunMemory()
    result = narrate(llm_server, memory=memory)
    assert result.narrator == "llm"
    assert llm_server.requests[-1]["max_completion_tokens"] == 2000
    # Remembered: the next narration sends the right name at once.
    before = len(llm_server.requests)
    narrate(llm_server, memory=memory)
    assert len(llm_server.requests) == before + 1
    assert "max_tokens" not in llm_server.requests[-1]


def test_ollama_like_server_without_usage_is_costed_by_estimate(llm_server: FakeLLMServer) -> None:
    llm_server.queue.append(completion(json.dumps(good_answer()), prompt_tokens=None, completion_tokens=None))
    memory = RunMemory()
    result = narrate(llm_server, memory=memory)
    assert result.narrator == "llm"
    assert result.cost.tokens_in > 100
    assert remembered(memory, llm_server).usage is False


def test_wrong_language_is_retried_once_then_falls_back_marked(
    llm_server: FakeLLMServer, caplog: pytest.LogCaptureFixture
) -> None:
    english = good_answer()
    mixed = dict(ZH_ANSWER, motivation=english["motivation"])  # the retry fixes all but one
    llm_server.queue += [completion(json.dumps(english)), completion(json.dumps(mixed))]
    with caplog.at_level(logging.WARNING):
        result = narrate(llm_server, lang="zh")
    retry = llm_server.requests[1]["messages"][-1]["content"]
    assert "written in another language" in retry
    assert result.narrator == "llm"
    assert result.one_line == ZH_ANSWER["one_line"]
    assert result.fallback_sections == ["motivation"]
    assert result.motivation == sample_fallback("zh").motivation
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1
    assert "section motivation falls back" in lines[0]
    assert "another language" in lines[0]


def test_chinese_answer_with_code_names_and_quotes_is_accepted(llm_server: FakeLLMServer) -> None:
    answer = dict(
        ZH_ANSWER,
        motivation=(
            'mgoin 指出 "this breaks the import when pytest is missing"，'
            "作者在 `vllm/quantization/humming.py` 里改用 CUDA 判断。"
        ),
    )
    llm_server.queue.append(completion(json.dumps(answer)))
    result = narrate(llm_server, lang="zh")
    assert result.fallback_sections == []
    assert len(llm_server.requests) == 1


def test_lists_come_from_the_facts_the_model_only_annotates(llm_server: FakeLLMServer) -> None:
    fallback = sample_fallback().model_copy(
        update={
            "risks": ["Fact risk one.", "Fact risk two.", "Fact risk three."],
            "related": [
                RelatedNote(
                    repository="vllm-project/vllm", number=42540, title="Add humming", relation="follow-up-to", note="a"
                ),
                RelatedNote(
                    repository="vllm-project/vllm", number=42541, title="Revert", relation="mentions", note="b"
                ),
            ],
        }
    )
    answer = good_answer(
        # Reordered, one dropped, one invented (item 9), one duplicate.
        risks=[
            {"item": 3, "text": "Third, made specific."},
            {"item": 9, "text": "An invented risk."},
            {"item": 1, "text": "First, made specific."},
            {"item": 1, "text": "First again."},
        ],
        # The model says there is nothing related and invents one: the facts' list stays.
        related=[{"number": 12345, "note": "Invented."}],
        file_roles=[
            {"path": "requirements/kv_connectors.txt", "role": "Not a key file in the facts."},
        ],
    )
    llm_server.queue.append(completion(json.dumps(answer)))
    result = narrate(llm_server, fallback=fallback)
    assert result.risks == ["First, made specific.", "Fact risk two.", "Third, made specific."]
    assert [(r.number, r.note) for r in result.related] == [(42540, "a"), (42541, "b")]
    assert [(r.path, r.role) for r in result.file_roles] == [("vllm/quantization/humming.py", "Extractive role.")]
    assert result.removed_mentions >= 3
    # The prompt numbered the items the model may annotate.
    prompt = llm_server.user_prompts()[0]
    assert "risk item 2: Fact risk two." in prompt
    assert "related item #42541" in prompt


def test_no_threads_means_no_highlights_whatever_the_model_says(llm_server: FakeLLMServer) -> None:
    facts = sample_facts()
    facts.discussion.threads.clear()
    fallback = sample_fallback().model_copy(update={"thread_lines": [], "discussion_highlights": []})
    llm_server.queue.append(completion(json.dumps(good_answer())))
    narrator = LLMNarrator(make_config(llm_server), sleep=lambda _s: None)
    result = narrator.narrate(sample_pr(), facts, [], "en", "full", fallback=fallback)
    narrator.close()
    assert result.discussion_highlights == []
    assert result.thread_lines == []
    assert "review threads: none" in llm_server.user_prompts()[0]


def test_html_and_script_links_never_reach_the_store_or_any_format(llm_server: FakeLLMServer) -> None:
    hostile = good_answer(
        one_line='Caps CuPy <script>alert("x")</script><img src=x onerror=alert(1)>below 14.1.0.',
        motivation="See [the fix](javascript:alert(1)) and [data](data:text/html;base64,PHNjcmlwdD4=) and <b>bold</b>.",
        feed_paragraph='Worth a quick read: <a href="javascript:alert(1)">click</a> <iframe src="x"></iframe>',
        implementation=[{"title": "Guard", "detail": "<style>body{}</style>`List<int>` stays code."}],
    )
    llm_server.queue.append(completion(json.dumps(hostile)))
    result = narrate(llm_server)
    stored = result.model_dump_json()
    for needle in ("<script", "javascript:", "data:text/html", "<img", "onerror", "<iframe", "<style", "<b>", "<a "):
        assert needle not in stored.lower()
    assert result.motivation == "See the fix and data and bold."
    assert "`List<int>` stays code." in result.implementation[0].detail
    for name, text in rendered(result).items():
        lowered = text.lower()
        assert "javascript:" not in lowered, name
        assert "<script" not in lowered, name
        assert "onerror" not in lowered, name


def test_failure_says_why_and_marks_the_narrative(llm_server: FakeLLMServer, caplog: pytest.LogCaptureFixture) -> None:
    llm_server.queue += [completion("Sure! {not json"), completion("still not json")]
    with caplog.at_level(logging.WARNING):
        result = narrate(llm_server)
    assert result.narrator == "extractive"
    assert "no section of the answer was usable" in result.llm_failure
    assert "no JSON object" in result.llm_failure
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1
    assert "falls back to the offline text" in lines[0]


def test_server_error_is_a_marked_failure(llm_server: FakeLLMServer) -> None:
    llm_server.queue += [error(500), error(500), error(500)]
    result = narrate(llm_server)
    assert result.narrator == "extractive"
    assert "HTTP 500" in result.llm_failure
