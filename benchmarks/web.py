"""Web benchmark: p50 / p95 latency of the feed, report and search pages under concurrency.

Fills a SQLite database with N synthetic PRs and their facts (direct SQLAlchemy Core inserts),
builds the search index with `prdigest.store.search_store.reindex`, starts ``prdigest serve``
on a free loopback port, and drives it with C concurrent httpx clients. Target: p95 < 50 ms.

    .venv/bin/python benchmarks/web.py                 # 100,000 PRs, 20 clients
    .venv/bin/python benchmarks/web.py --prs 10000     # quicker
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from sqlalchemy import insert

from prdigest.models.facts import (
    Facts,
    FileFact,
    FilesFacts,
    RisksFacts,
    RiskTag,
    VerdictFacts,
    VerdictLevel,
    VerdictReason,
)
from prdigest.models.pullrequest import Comment, PullRequest
from prdigest.store import Store
from prdigest.store.schema import fact_labels, facts, pull_requests, repositories
from prdigest.store.search_store import reindex

REPO = "bench/repo"
TARGET_MS = 50.0
WORDS = [
    "cuda",
    "rocm",
    "kernel",
    "attention",
    "cache",
    "scheduler",
    "tokenizer",
    "quantization",
    "fp8",
    "moe",
    "lora",
    "speculative",
    "decoding",
    "pipeline",
    "tensor",
    "parallel",
    "build",
    "docker",
    "ci",
    "test",
    "regression",
    "numpy",
    "torch",
    "triton",
    "memory",
    "leak",
    "fix",
    "refactor",
]
ZH = ["修复", "回归", "风险", "依赖", "约束", "内存", "泄漏", "调度", "缓存", "量化", "测试", "构建", "镜像"]
RISKS = ["missing-regression-test", "dependency-constraint-change", "runtime-image-impact", "dependency-upgrade"]
MODULES = ["kernels", "scheduler", "build", "docker", "ci", "quantization", "tests", "docs"]
LEVELS = [VerdictLevel.READ_IN_DEPTH, VerdictLevel.QUICK_READ, VerdictLevel.SKIP]


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)) + " " + "".join(rng.sample(ZH, 2))


def fill(store: Store, count: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    with store.engine.begin() as connection:
        repo_id = connection.execute(insert(repositories).values(full_name=REPO).returning(repositories.c.id)).scalar()
    batch = 2000
    for first in range(1, count + 1, batch):
        pr_rows, fact_rows, label_rows = [], [], []
        for number in range(first, min(first + batch, count + 1)):
            when = start + timedelta(minutes=7 * number)
            pr = PullRequest(
                repository=REPO,
                number=number,
                title=sentence(rng, 6),
                body=sentence(rng, 40),
                author=f"dev{rng.randrange(300)}",
                created_at=when - timedelta(hours=5),
                merged_at=when,
                additions=rng.randrange(500),
                deletions=rng.randrange(200),
                comments=[Comment(author="rev", body=sentence(rng, 15)) for _ in range(rng.randrange(3))],
            )
            risks = rng.sample(RISKS, rng.randrange(3))
            modules = rng.sample(MODULES, 1 + rng.randrange(2))
            level = rng.choice(LEVELS)
            fact = Facts(
                repository=REPO,
                number=number,
                files=FilesFacts(
                    files=[FileFact(path=f"src/{m}/x.py", module=m, is_key=True) for m in modules], modules=modules
                ),
                risks=RisksFacts(tags=[RiskTag(tag=r, label_zh=r, label_en=r, evidence="synthetic") for r in risks]),
                verdict=VerdictFacts(level=level, score=rng.random(), reasons=[VerdictReason(code="size", detail="x")]),
            )
            record = pr.model_dump_json()
            pr_rows.append(
                {
                    "id": number,
                    "repository_id": repo_id,
                    "number": number,
                    "title": pr.title,
                    "state": "merged",
                    "author": pr.author,
                    "created_at": pr.created_at.replace(tzinfo=None) if pr.created_at else None,
                    "merged_at": when.replace(tzinfo=None),
                    "additions": pr.additions,
                    "deletions": pr.deletions,
                    "changed_files": len(modules),
                    "source": "bundle",
                    "record": record,
                    "record_hash": f"{number:064x}",
                }
            )
            fact_rows.append(
                {
                    "pull_request_id": number,
                    "cache_key": "bench",
                    "verdict": level.value,
                    "score": fact.verdict.score,
                    "body": fact.model_dump_json(),
                }
            )
            label_rows += [{"pull_request_id": number, "kind": "risk", "value": r} for r in risks]
            label_rows += [{"pull_request_id": number, "kind": "module", "value": m} for m in modules]
        with store.engine.begin() as connection:
            connection.execute(insert(pull_requests), pr_rows)
            connection.execute(insert(facts), fact_rows)
            if label_rows:
                connection.execute(insert(fact_labels), label_rows)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(db: Path, port: int, workers: int) -> subprocess.Popen[bytes]:
    code = "import sys; from prdigest.cli.serve import serve; serve(sys.argv[1:])"
    args = ["--db", str(db), "--port", str(port), "--workers", str(workers), "--no-reindex"]
    process = subprocess.Popen([sys.executable, "-c", code, *args])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/repos.json", timeout=2).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("server did not start")


async def measure(base: str, urls: list[str], clients: int, max_seconds: float) -> list[float]:
    latencies: list[float] = []
    queue = list(reversed(urls))
    stop_at = time.monotonic() + max_seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as client:

        async def worker() -> None:
            while queue and time.monotonic() < stop_at:
                url = queue.pop()
                began = time.perf_counter()
                response = await client.get(url)
                latencies.append((time.perf_counter() - began) * 1000)
                if response.status_code != 200:
                    raise RuntimeError(f"{url}: HTTP {response.status_code}")

        await asyncio.gather(*(worker() for _ in range(clients)))
    return latencies


def report_line(name: str, latencies: list[float]) -> str:
    ordered = sorted(latencies)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    verdict = "OK" if p95 < TARGET_MS else "over target"
    figures = f"n={len(ordered):>5}  p50={p50:6.1f} ms  p95={p95:6.1f} ms"
    return f"{name:<28} {figures}  (target p95 < {TARGET_MS:.0f} ms: {verdict})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prs", type=int, default=100_000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=1000, help="requests per page kind")
    parser.add_argument("--max-seconds", type=float, default=60.0, help="cap per page kind")
    parser.add_argument("--workers", type=int, default=2, help="server processes")
    parser.add_argument("--db", type=Path, default=None, help="reuse/keep this database file")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="prdigest-bench-"))
    db = args.db or folder / "bench.db"
    fresh = not db.exists()
    store = Store.open(f"sqlite:///{db}")
    if fresh:
        began = time.perf_counter()
        fill(store, args.prs)
        print(f"filled {args.prs} PRs + facts in {time.perf_counter() - began:.1f} s")
    began = time.perf_counter()
    stats = reindex(store)
    print(f"search index: {stats.indexed} rows built in {time.perf_counter() - began:.1f} s")
    total = store.count_prs()
    store.close()

    rng = random.Random(1)
    pages = max(1, total // 30)
    report_numbers = [rng.randrange(1, total + 1) for _ in range(200)]
    kinds = {
        "feed (random page)": [
            f"/repos/{REPO}?page={rng.randrange(1, min(pages, 200) + 1)}" for _ in range(args.requests)
        ],
        "feed (risk filter)": [
            f"/repos/{REPO}?risk={rng.choice(RISKS)}&page={rng.randrange(1, 20)}" for _ in range(args.requests)
        ],
        "report (warm)": [
            f"/repos/{REPO}/pulls/{rng.choice(report_numbers)}?lang={rng.choice(['zh', 'en'])}"
            for _ in range(args.requests)
        ],
        "search": [f"/search?q={rng.choice(WORDS)}+{rng.choice(WORDS)}" for _ in range(args.requests)],
        "search (CJK)": [f"/search?q={rng.choice(ZH)}" for _ in range(args.requests)],
    }
    port = free_port()
    server = start_server(db, port, args.workers)
    base = f"http://127.0.0.1:{port}"
    try:
        # Warm-up: first views narrate and cache the sampled reports (a write each).
        warm = [f"/repos/{REPO}/pulls/{n}?lang={lang}" for n in report_numbers for lang in ("zh", "en")]
        cold = asyncio.run(measure(base, warm, args.clients, 600))
        print(f"\n{total} PRs, {args.clients} concurrent clients, {args.workers} server workers\n")
        print(report_line("report (first view, cold)", cold))
        results = {}
        for name, urls in kinds.items():
            results[name] = asyncio.run(measure(base, urls, args.clients, args.max_seconds))
            print(report_line(name, results[name]))
        summary = {
            name: {"p50": statistics.median(v), "p95": sorted(v)[int(0.95 * len(v))]} for name, v in results.items()
        }
        print("\n" + json.dumps(summary, indent=1))
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
