"""A real OpenAI-compatible HTTP server on 127.0.0.1, and PRs / facts / fallbacks built by hand."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from prdigest.config import LLMConfig
from prdigest.models.facts import (
    DiscussionFacts,
    DiscussionThread,
    Facts,
    FileFact,
    FilesFacts,
    Quote,
    Reference,
    ReferencesFacts,
    SymbolChange,
    SymbolsFacts,
)
from prdigest.models.narrative import ExcerptNote, FileRole, ImplementationStep, Narrative, RelatedNote, ThreadLine
from prdigest.models.pullrequest import FileChange, PullRequest

API_KEY = "sk-test-SECRET-0123456789abcdef"


@dataclass
class Scripted:
    """One scripted answer: HTTP status, JSON body, extra headers, delay before answering."""

    status: int = 200
    body: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def completion(content: str, prompt_tokens: int | None = 321, completion_tokens: int | None = 123) -> Scripted:
    body: dict[str, Any] = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1700000000,
        "model": "test-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
    }
    if prompt_tokens is not None and completion_tokens is not None:
        body["usage"] = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
    return Scripted(body=body)


def error(status: int, headers: dict[str, str] | None = None, message: str = "scripted failure") -> Scripted:
    return Scripted(status=status, body={"error": {"message": message, "type": "server_error"}}, headers=headers or {})


class FakeLLMServer:
    """Answers POST /v1/chat/completions from a queue; records every request it got."""

    def __init__(self) -> None:
        self.queue: list[Scripted] = []
        # Answers computed from the request (a server's rules), used when set; else the queue.
        self.respond: Callable[[dict[str, Any]], Scripted] | None = None
        self.models: list[str] = ["test-model"]
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path != "/v1/models":
                    self._send(error(404))
                    return
                data = [{"id": name, "object": "model", "created": 0, "owned_by": "test"} for name in server.models]
                self._send(Scripted(body={"object": "list", "data": data}))

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                payload = json.loads(self.rfile.read(length) or b"{}")
                with server._lock:
                    server.requests.append(payload)
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                    if server.respond is not None:
                        scripted = server.respond(payload)
                    else:
                        scripted = server.queue.pop(0) if server.queue else error(500)
                if self.path != "/v1/chat/completions":
                    scripted = error(404)
                self._send(scripted)

            def _send(self, scripted: Scripted) -> None:
                if scripted.delay:
                    time.sleep(scripted.delay)
                data = json.dumps(scripted.body or {}).encode()
                try:
                    self.send_response(scripted.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in scripted.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def user_prompts(self) -> list[str]:
        return [next(m["content"] for m in reversed(r["messages"]) if m["role"] == "user") for r in self.requests]


@contextmanager
def running_llm_server() -> Iterator[FakeLLMServer]:
    """A fake OpenAI-compatible server on 127.0.0.1, stopped when the block ends."""
    server = FakeLLMServer()
    server.thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()


@pytest.fixture
def llm_server() -> Iterator[FakeLLMServer]:
    with running_llm_server() as server:
        yield server


def make_config(server: FakeLLMServer, **overrides: Any) -> LLMConfig:
    values: dict[str, Any] = {
        "base_url": server.base_url,
        "model": "test-model",
        "api_key": API_KEY,
        "token_budget": 12000,
        "timeout": 5.0,
    }
    values.update(overrides)
    return LLMConfig(**values)


PATCH_HUMMING = """@@ -10,3 +10,5 @@ class HummingConfig(QuantizationConfig):
     def __init__(self, full_config=None):
-        assert_humming_available()
+        # the check moved to the platform guard
+        if current_platform.is_cuda():
+            load_humming()
         self.full_config = full_config or {}
"""
PATCH_REQS = """@@ -1,2 +1,3 @@
 torch==2.9
+cupy-cuda13x < 14.1.0
 numpy
"""


def sample_pr(body: str = "Restores humming and caps CuPy. Follow-up to #42540.") -> PullRequest:
    return PullRequest(
        repository="vllm-project/vllm",
        number=43530,
        title="Fix CuPy runtime deps and restore humming",
        body=body,
        author="mmangkad",
        files=[
            FileChange(path="vllm/quantization/humming.py", additions=3, deletions=1, patch=PATCH_HUMMING),
            FileChange(path="requirements/kv_connectors.txt", additions=1, deletions=0, patch=PATCH_REQS),
        ],
        additions=4,
        deletions=1,
    )


def sample_facts() -> Facts:
    return Facts(
        repository="vllm-project/vllm",
        number=43530,
        files=FilesFacts(
            files=[
                FileFact(
                    path="vllm/quantization/humming.py",
                    category="source",
                    module="quantization",
                    additions=3,
                    deletions=1,
                    is_key=True,
                    key_reason="core logic",
                ),
                FileFact(path="requirements/kv_connectors.txt", category="config", type="configuration", additions=1),
            ],
            total_files=2,
            total_additions=4,
            total_deletions=1,
            modules=["quantization", "dependency config"],
        ),
        symbols=SymbolsFacts(
            symbols=[SymbolChange(path="vllm/quantization/humming.py", name="HummingConfig.__init__", kind="method")]
        ),
        references=ReferencesFacts(
            references=[
                Reference(repository="vllm-project/vllm", number=42540, target_kind="pr", relation="follow-up-to")
            ]
        ),
        discussion=DiscussionFacts(
            threads=[
                DiscussionThread(
                    topic="error message regression",
                    kind="correctness",
                    outcome="no-reply",
                    path="vllm/quantization/humming.py",
                    participants=["gemini-code-assist"],
                    quotes=[Quote(author="gemini-code-assist", text="Users now get a NameError.", is_bot=True)],
                )
            ]
        ),
    )


def sample_fallback(lang: str = "en") -> Narrative:
    return Narrative(
        lang="en" if lang == "en" else "zh",
        length="full",
        one_line="Extractive: caps CuPy and restores humming.",
        recommendation="Extractive recommendation.",
        motivation="Extractive motivation.",
        implementation=[ImplementationStep(title="Cap CuPy", detail="Extractive detail.")],
        file_roles=[FileRole(path="vllm/quantization/humming.py", role="Extractive role.")],
        excerpt_notes=[ExcerptNote(path="vllm/quantization/humming.py", note="Extractive note.")],
        thread_lines=[ThreadLine(topic="error message regression", kind="correctness", outcome="no-reply")],
        risks=["Extractive risk."],
        related=[
            RelatedNote(
                repository="vllm-project/vllm", number=42540, title="Add humming", relation="follow-up-to", note="x"
            )
        ],
        feed_title="Extractive feed title",
        feed_paragraph="Extractive feed paragraph.",
    )


def good_answer(**overrides: Any) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "one_line": "Caps CuPy below 14.1.0 and restores humming on CUDA.",
        "recommendation": "Read the import guard in `vllm/quantization/humming.py`.",
        "motivation": "#42540 was reverted; the real cause was CuPy 14.1.0 importing pytest.",
        "implementation": [{"title": "Guard the import", "detail": "`HummingConfig.__init__` no longer asserts."}],
        "file_roles": [{"path": "vllm/quantization/humming.py", "role": "Quantization entry point."}],
        "excerpt_notes": [{"path": "humming.py", "note": "The platform guard replaces the assert."}],
        "discussion_highlights": [
            {"topic": "Error message", "who": "gemini-code-assist", "summary": "NameError instead of a hint."}
        ],
        "thread_lines": [{"thread": 1, "topic": "Error message regression", "note": "Not answered."}],
        "risks": [{"item": 1, "text": "Users without humming get a NameError."}],
        "impact": {"users": "Clearer installs.", "system": "CuPy capped.", "team": "Track CuPy 14.1.1."},
        "related": [{"number": 42540, "note": "Restores what #42540 added."}],
        "feed_title": "Cap CuPy, restore humming",
        "feed_paragraph": "Worth a quick read: a dependency-governance lesson.",
        "judgement": {
            "lesson": {"text": "A revert that leaves the failure in place points at another cause.", "facts": []},
            "watch_next": {"text": "CuPy 14.1.1, which would let the cap go.", "facts": ["related:42540"]},
            "action": {"text": "Keep an install hint for users without humming.", "facts": ["file:nowhere.py"]},
            "verdict": {"level": "", "reason": "", "facts": []},
        },
    }
    answer.update(overrides)
    return answer


def schema_filled(node: dict[str, Any], text: str = "Some effect.") -> Any:
    """A value of the JSON schema `node` as a schema-following server writes one: empty lists,
    objects filled in, `text` for strings."""
    if node["type"] == "array":
        return []
    if node["type"] == "object":
        return {name: schema_filled(child, text) for name, child in node["properties"].items()}
    return text


def generated_pr(n_files: int, hunks_per_file: int = 2) -> tuple[PullRequest, Facts]:
    """A PR of `n_files` files of mixed categories, each with real unified-diff hunks."""
    kinds = [
        ("src/pkg/mod{i}/core.py", "source", "core-logic"),
        ("tests/mod{i}/test_core.py", "test", "test"),
        ("docs/page{i}.md", "docs", "docs"),
        ("configs/c{i}.yaml", "config", "configuration"),
        ("docker/Dockerfile.{i}", "infra", "infrastructure"),
    ]
    changes: list[FileChange] = []
    file_facts: list[FileFact] = []
    for i in range(n_files):
        pattern, category, ftype = kinds[i % len(kinds)]
        path = pattern.format(i=i)
        hunks = []
        for h in range(hunks_per_file):
            start = 10 + 40 * h
            body = [f" def helper_{i}_{h}(value):", f"-    return value + {h}", f"+    total = value + {h} * 2"]
            body += [f"+    log.debug('helper {i} {h}: %s', total)", "+    return total", "     # end"]
            hunks.append(f"@@ -{start},4 +{start},6 @@ class Mod{i}:\n" + "\n".join(body))
        additions, deletions = 3 * hunks_per_file, hunks_per_file
        changes.append(FileChange(path=path, additions=additions, deletions=deletions, patch="\n".join(hunks) + "\n"))
        file_facts.append(
            FileFact(
                path=path,
                category=category,  # type: ignore[arg-type]
                type=ftype,  # type: ignore[arg-type]
                module=path.split("/")[0],
                additions=additions,
                deletions=deletions,
                is_key=(i < 3),
            )
        )
    pr = PullRequest(
        repository="o/r",
        number=7,
        title=f"Change {n_files} files",
        body="Refactors helpers.",
        files=changes,
        additions=sum(c.additions for c in changes),
        deletions=sum(c.deletions for c in changes),
    )
    facts = Facts(
        repository="o/r",
        number=7,
        files=FilesFacts(
            files=file_facts, total_files=n_files, total_additions=pr.additions, total_deletions=pr.deletions
        ),
    )
    return pr, facts
