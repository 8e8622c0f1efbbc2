"""What an LLM narration costs per PR: calls, tokens and seconds, against a local fake
OpenAI-compatible server that answers after a fixed delay (the model's thinking time).

For generated PRs of 1 to 300 files (`prompt_budget.generated_pr`), each with a linked
context of four related items (a reverted PR, a restored one, a ledger predecessor, a fixed
issue, with bodies of realistic length), it narrates every PR through `LLMNarrator` as the
pipeline does and prints, per size class: the synthesis prompt's tokens next to pr-agent's
medians (1,628 / 6,212 / 30,322), the calls (file-group summaries + synthesis), tokens in
and out, and seconds per PR; then the steps of the largest PR. Tokens are prdigest's own
estimate (the fake server reports no usage, as some llama.cpp builds do not).

    .venv/bin/python benchmarks/llm_cost.py --delay 0.5 --budget 16000 --group-calls 4
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from prompt_budget import CLASSES, generated_pr, size_class

from prdigest.config import LLMConfig
from prdigest.models.narrative import Narrative
from prdigest.narrate.extractive import narrate_extractive
from prdigest.narrate.llm import LLMNarrator
from prdigest.narrate.llm.linked import LinkedItem
from prdigest.narrate.llm.prompt import build_prompt

SIZES = (1, 2, 5, 8, 12, 30, 40, 120, 300)
SENTENCE = "The dispatch now checks the weight dtype before it calls the fused kernel."


def _filled(node: dict[str, Any]) -> Any:
    if node.get("type") == "array":
        return []
    if node.get("type") == "object":
        return {name: _filled(child) for name, child in node.get("properties", {}).items()}
    return SENTENCE


@contextmanager
def fake_server(delay: float) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """A chat-completions endpoint: a summary for group calls, the schema filled otherwise."""
    requests: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            payload = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
            requests.append(payload)
            time.sleep(delay)
            schema = payload.get("response_format", {}).get("json_schema", {}).get("schema", {})
            props = schema.get("properties", {})
            answer = {"summary": SENTENCE} if set(props) == {"summary"} else {k: _filled(v) for k, v in props.items()}
            body = json.dumps(
                {
                    "id": "bench",
                    "object": "chat.completion",
                    "created": 0,
                    "model": payload.get("model", "bench"),
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "stop",
                            "message": {"role": "assistant", "content": json.dumps(answer)},
                        }
                    ],
                }
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", requests
    finally:
        httpd.shutdown()
        httpd.server_close()


def linked_items(repository: str) -> list[LinkedItem]:
    body = " ".join(
        [
            "The runtime image started failing with an import error after the kernels were enabled by default.",
            "Reverting the registration did not help: the failure comes from a transitive dependency that",
            "imports the test runner when the framework walks the loaded modules.",
        ]
        * 3
    )
    diff = "vllm/model_executor/layers/fused_moe/layer.py (+40 −12, modified); requirements/cuda.txt (+1 −0, modified)"
    return [
        LinkedItem("pr", repository, 101, "restores", "Add the fused MoE kernels", body, diff),
        LinkedItem("pr", repository, 102, "reverted-by", 'Revert "Add the fused MoE kernels"', body, diff),
        LinkedItem("issue", repository, 99, "fixes", "Import error in the nightly image", body * 2),
        LinkedItem("pr", repository, 95, "ledger-predecessor (cupy-cuda13x)", "Cap CuPy below 14.1", body, diff),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.5, help="seconds the fake server waits before each answer")
    parser.add_argument("--budget", type=int, default=16000, help="[llm] token_budget")
    parser.add_argument("--group-calls", type=int, default=4, help="[llm] group_calls")
    parser.add_argument("--lang", choices=("zh", "en"), default="en")
    args = parser.parse_args()

    rows: dict[str, list[tuple[int, Narrative, int]]] = {}
    with fake_server(args.delay) as (url, _requests):
        config = LLMConfig(
            base_url=url, model="bench", token_budget=args.budget, group_calls=args.group_calls, timeout=60
        )
        for size in SIZES:
            pr, facts = generated_pr(size)
            fallback = narrate_extractive(pr, facts, [], args.lang, "full")
            narrator = LLMNarrator(config)
            try:
                narrative = narrator.narrate(
                    pr, facts, [], args.lang, "full", fallback=fallback, linked=linked_items(pr.repository)
                )
            finally:
                narrator.close()
            # The same PR's one-call prompt without the linked context, for what the context costs.
            bare = build_prompt(pr, facts, [], args.lang, "full", budget=args.budget, lists=fallback).tokens
            rows.setdefault(size_class(size) or "between", []).append((size, narrative, bare))

    print(
        f"delay {args.delay:.2f} s per call, budget {args.budget:,} tokens, group_calls {args.group_calls}, {args.lang}"
    )
    print(
        f"{'class':<8} {'files':>5} {'synthesis in':>12} {'no linked':>9} {'anchor':>7} {'calls':>5} "
        f"{'tokens in':>9} {'out':>5} {'seconds':>7}"
    )
    anchors = {name: anchor for name, _, _, anchor in CLASSES}
    for name, measured in rows.items():
        for size, narrative, bare in measured:
            synthesis_in = next((s.tokens_in for s in narrative.cost.steps if s.step == "synthesis"), 0)
            anchor = f"{anchors[name]:,}" if name in anchors else "-"
            cost = narrative.cost
            print(
                f"{name:<8} {size:>5} {synthesis_in:>12,} {bare:>9,} {anchor:>7} {cost.calls:>5} {cost.tokens_in:>9,} "
                f"{cost.tokens_out:>5,} {cost.seconds:>7.2f}"
            )
    for name in anchors:
        if name in rows:
            values = [next(s.tokens_in for s in n.cost.steps if s.step == "synthesis") for _, n, _ in rows[name]]
            print(f"median synthesis prompt, {name}: {statistics.median(values):,.0f} (pr-agent {anchors[name]:,})")
    largest = rows[max(rows, key=lambda k: max(size for size, _, _ in rows[k]))][-1][1]
    print("steps of the largest PR:")
    for step in largest.cost.steps:
        print(f"  {step.step:<12} in {step.tokens_in:>6,}  out {step.tokens_out:>4,}  {step.seconds:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
