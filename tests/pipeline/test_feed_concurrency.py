"""`prdigest feed` / `publish` with an LLM: calls run concurrently, bounded by the configuration."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from prdigest.config import LLMConfig
from prdigest.models.pullrequest import FileChange, PullRequest
from prdigest.pipeline.report import feed_for
from prdigest.store import Store


class _SlowChat(BaseHTTPRequestHandler):
    lock = threading.Lock()
    in_flight = 0
    peak = 0
    calls = 0

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        cls = type(self)
        with cls.lock:
            cls.in_flight += 1
            cls.calls += 1
            cls.peak = max(cls.peak, cls.in_flight)
        time.sleep(0.15)  # long enough that concurrent requests overlap
        with cls.lock:
            cls.in_flight -= 1
        answer = {"one_line": "Relaxes a pin.", "recommendation": "Skim it.", "motivation": "A fix shipped."}
        body = json.dumps(
            {
                "id": "x",
                "object": "chat.completion",
                "created": 0,
                "model": "m",
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": json.dumps(answer)},
                    }
                ],
                "usage": {"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10},
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
def slow_server() -> Iterator[str]:
    _SlowChat.in_flight = _SlowChat.peak = _SlowChat.calls = 0
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _SlowChat)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        httpd.shutdown()
        httpd.server_close()


def _pr(number: int) -> PullRequest:
    patch = f"@@ -1 +1 @@\n-x = {number}\n+x = {number + 1}\n"
    return PullRequest(
        repository="org/proj",
        number=number,
        title=f"Bump x to {number + 1}",
        files=[FileChange(path=f"pkg/mod{number}.py", additions=1, deletions=1, patch=patch)],
    )


def test_feed_narrates_concurrently_within_the_bound(tmp_path: Path, slow_server: str) -> None:
    pytest.importorskip("openai")
    config = LLMConfig(base_url=slow_server, model="m", api_key="k", timeout=10.0, concurrency=3)
    with Store.open(f"sqlite:///{tmp_path / 'db.sqlite'}") as store:
        store.upsert_prs([_pr(n) for n in range(1, 9)])
        feed = feed_for(store, "org/proj", "en", config)
        assert len(feed.items) == 8
        assert 2 <= _SlowChat.peak <= 3
        calls = _SlowChat.calls
        assert calls >= 8
        again = feed_for(store, "org/proj", "en", config)  # every narrative is cached now
        assert _SlowChat.calls == calls
        assert [item.number for item in again.items] == [item.number for item in feed.items]


def test_publish_narrates_page_by_page_and_writes_what_one_page_writes(tmp_path: Path, slow_server: str) -> None:
    # With an LLM, publishing reads and narrates a page of PRs at a time (memory stays flat
    # with an LLM too); where the pages end shows in no file, and every narrative is cached.
    pytest.importorskip("openai")
    from prdigest.pipeline.publish import publish_site

    config = LLMConfig(base_url=slow_server, model="m", api_key="k", timeout=10.0, concurrency=3)
    with Store.open(f"sqlite:///{tmp_path / 'db.sqlite'}") as store:
        store.upsert_prs([_pr(n) for n in range(1, 8)])
        pages, one_page = tmp_path / "pages", tmp_path / "one"
        written = publish_site(store, "org/proj", pages, ["en"], config, page_size=3)
        assert (written.reports, written.failures) == (7 * 2 * 3, [])
        calls = _SlowChat.calls
        assert calls >= 7 * 2
        assert _SlowChat.peak <= 3
        publish_site(store, "org/proj", one_page, ["en"], config)
        assert _SlowChat.calls == calls  # nothing narrated twice
    texts = {p.relative_to(pages): p.read_bytes() for p in pages.rglob("*") if p.is_file()}
    assert texts == {p.relative_to(one_page): p.read_bytes() for p in one_page.rglob("*") if p.is_file()}
    assert "Relaxes a pin." in (pages / "reports" / "4.en.full.md").read_text(encoding="utf-8")
