"""The narrative cache with a real LLM server on 127.0.0.1: a failed narration is stored as a
fallback and retried after its back-off, ``refresh`` narrates again, and the web's report
page and feed show the same narrative (the configured model's newest success, else offline)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.narrate.llm.conftest import FakeLLMServer, Scripted, completion, error, running_llm_server

from prdigest.config import LLMConfig, Settings
from prdigest.pipeline.narrate import narrate_with_status, retry_delay
from prdigest.pipeline.report import current_facts, feed_for
from prdigest.store import Store
from prdigest.web import create_app

REPO = "example-org/widgets"
LLM_PARAGRAPH = "Worth a quick read: the model's own paragraph."


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    pytest.importorskip("openai")
    with running_llm_server() as fake:
        yield fake


def answering(payload: dict[str, Any]) -> Scripted:
    """A schema-following server: every required key, with text in the shape asked for."""
    schema = payload["response_format"]["json_schema"]["schema"]
    values: dict[str, Any] = {}
    for key, node in schema["properties"].items():
        if node["type"] == "array":
            values[key] = []
        elif node["type"] == "object":
            values[key] = dict.fromkeys(node["properties"], "Some effect.")
        else:
            values[key] = "The parser strips its input."
    if "feed_paragraph" in values:
        values["feed_paragraph"] = LLM_PARAGRAPH
    return completion(json.dumps(values))


def config_for(server: FakeLLMServer, **overrides: Any) -> LLMConfig:
    values: dict[str, Any] = {"base_url": server.base_url, "model": "test-model", "api_key": "k", "timeout": 5.0}
    return LLMConfig(**(values | overrides))


def test_a_failure_is_stored_as_a_fallback_and_retried_after_its_back_off(
    small_store: Store, server: FakeLLMServer
) -> None:
    config = config_for(server, retry_after=600.0)
    pr = small_store.get_pr(REPO, 2)
    facts = current_facts(small_store, pr)
    server.respond = lambda _payload: error(500)

    first = narrate_with_status(small_store, pr, facts, [], "en", "full", config)
    assert first.narrative.narrator == "extractive"
    assert "HTTP 500" in first.narrative.llm_failure
    assert first.narrative.llm_attempts == 1
    failed_calls = len(server.requests)
    assert failed_calls >= 1

    # Within the back-off: no call, the fallback is shown.
    again = narrate_with_status(small_store, pr, facts, [], "en", "full", config)
    assert again.cached
    assert len(server.requests) == failed_calls
    assert again.narrative.narrator == "extractive"

    # The server recovers; after the back-off the next run narrates and caches it.
    server.respond = answering
    later = datetime.now(UTC) + retry_delay(config, 1) + timedelta(seconds=1)
    recovered = narrate_with_status(small_store, pr, facts, [], "en", "full", config, now=later)
    assert recovered.narrative.narrator == "llm"
    assert recovered.narrative.llm_failure == ""
    calls = len(server.requests)
    assert calls > failed_calls
    assert narrate_with_status(small_store, pr, facts, [], "en", "full", config).cached
    assert len(server.requests) == calls

    # --refresh: narrated again on demand.
    refreshed = narrate_with_status(small_store, pr, facts, [], "en", "full", config, refresh=True)
    assert not refreshed.cached
    assert len(server.requests) > calls


def test_back_off_doubles_up_to_a_day(server: FakeLLMServer) -> None:
    config = config_for(server, retry_after=600.0)
    assert [retry_delay(config, n).total_seconds() for n in (1, 2, 3)] == [600, 1200, 2400]
    assert retry_delay(config, 30) == timedelta(days=1)


def test_a_later_failure_keeps_showing_the_last_success(small_store: Store, server: FakeLLMServer) -> None:
    config = config_for(server)
    pr = small_store.get_pr(REPO, 2)
    facts = current_facts(small_store, pr)
    server.respond = answering
    assert narrate_with_status(small_store, pr, facts, [], "en", "brief", config).narrative.narrator == "llm"
    server.respond = lambda _payload: error(500)
    failed = narrate_with_status(small_store, pr, facts, [], "en", "brief", config, refresh=True)
    assert failed.narrative.narrator == "llm"
    assert failed.narrative.feed_paragraph == LLM_PARAGRAPH


def test_web_report_and_feed_show_the_same_narrative(small_store: Store, server: FakeLLMServer) -> None:
    config = config_for(server)
    server.respond = answering
    feed_for(small_store, REPO, "en", config)  # narrates the brief narratives with the LLM
    calls = len(server.requests)

    # Served without --llm (no call is made), with the model configured: the LLM's text.
    with TestClient(create_app(small_store, Settings(llm=config))) as client:
        report = client.get(f"/repos/{REPO}/pulls/2.json", params={"lang": "en", "length": "brief"}).json()
        feed = client.get(f"/repos/{REPO}.json", params={"lang": "en"}).json()
    assert len(server.requests) == calls
    assert report["narrative"]["narrator"] == "llm"
    assert report["narrative"]["feed_paragraph"] == LLM_PARAGRAPH
    item = next(i for i in feed["items"] if i["number"] == 2)
    assert item["feed_paragraph"] == LLM_PARAGRAPH

    # No LLM configured: both show the offline narrative, and viewing it did not replace the LLM's.
    with TestClient(create_app(small_store, Settings())) as client:
        report = client.get(f"/repos/{REPO}/pulls/2.json", params={"lang": "en", "length": "brief"}).json()
        feed = client.get(f"/repos/{REPO}.json", params={"lang": "en"}).json()
    assert report["narrative"]["narrator"] == "extractive"
    item = next(i for i in feed["items"] if i["number"] == 2)
    assert item["feed_paragraph"] == report["narrative"]["feed_paragraph"] != LLM_PARAGRAPH
    with TestClient(create_app(small_store, Settings(llm=config))) as client:
        feed = client.get(f"/repos/{REPO}.json", params={"lang": "en"}).json()
    assert next(i for i in feed["items"] if i["number"] == 2)["feed_paragraph"] == LLM_PARAGRAPH
