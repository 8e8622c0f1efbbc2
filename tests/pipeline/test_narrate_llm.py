"""With an LLM configured, the service calls it once; the re-run is served from the cache."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from prdigest.config import LLMConfig
from prdigest.pipeline.narrate import narrate_with_status
from prdigest.store import Store


class _ChatHandler(BaseHTTPRequestHandler):
    calls: list[str] = []  # noqa: RUF012 - shared with the test through the class

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        self.calls.append(self.rfile.read(length).decode("utf-8", "replace"))
        body = json.dumps(
            {
                "id": "chatcmpl-1",
                "object": "chat.completion",
                "created": 0,
                "model": "test-model",
                "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "{}"}}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12},
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    _ChatHandler.calls = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _ChatHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_llm_narration_is_cached(tmp_path: Path, seeds: Any, server: str) -> None:
    pytest.importorskip("openai")
    config = LLMConfig(base_url=server, model="test-model", api_key="sk-test", timeout=10.0)
    pr, facts = seeds.cupy_pr(), seeds.cupy_facts()
    with Store.open(f"sqlite:///{tmp_path / 'db.sqlite'}") as store:
        store.upsert_prs([pr])
        first = narrate_with_status(store, pr, facts, [], "en", "brief", config)
        calls = len(_ChatHandler.calls)
        assert calls >= 1
        assert first.cache_key.startswith("llm-prompt-")
        assert not first.cached
        second = narrate_with_status(store, pr, facts, [], "en", "brief", config)
        assert second.cached
        assert second.narrative == first.narrative
        assert len(_ChatHandler.calls) == calls  # no new request
