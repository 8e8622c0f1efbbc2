"""Web benchmark: p50 / p95 latency of the feed, report and search pages under concurrency.

Fills a SQLite database with N synthetic PRs and their facts (direct SQLAlchemy Core inserts),
builds the search index with `prdigest.store.search_store.reindex`, starts ``prdigest serve``
on a free loopback port exactly as a user would (its default worker count unless --workers is
given), and drives it with C concurrent connections from ONE asyncio loop in this process
(httpx.AsyncClient, at most C connections): the load generator uses one OS thread, so on a
small machine it takes as little CPU from the server as an HTTP client in Python can.
Prints p50/p95/p99 and requests/s per page next to the target (p95 < 50 ms), the machine's
core count and the CPU time the load generator itself used.

    .venv/bin/python benchmarks/web.py                 # 100,000 PRs, 20 clients
    .venv/bin/python benchmarks/web.py --prs 10000     # quicker
    .venv/bin/python benchmarks/web.py --db /tmp/b.db  # keep the filled database for the next run
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

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


def start_server(db: Path, port: int, workers: int | None) -> subprocess.Popen[bytes]:
    code = "import sys; from prdigest.cli.serve import serve; serve(sys.argv[1:])"
    args = ["--db", str(db), "--port", str(port), "--no-reindex"]
    if workers is not None:
        args += ["--workers", str(workers)]
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


@dataclass
class Run:
    latencies: list[float]
    seconds: float
    client_cpu: float
    server_cpu: float | None = None


async def measure(base: str, urls: list[str], clients: int, max_seconds: float) -> Run:
    latencies: list[float] = []
    queue = list(reversed(urls))
    began_wall, began_cpu = time.perf_counter(), time.process_time()
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
    return Run(latencies, time.perf_counter() - began_wall, time.process_time() - began_cpu)


def process_tree_cpu(root: int) -> float | None:
    """CPU seconds (user + system) used so far by `root` and its children; None off Linux."""
    try:
        tick = os.sysconf("SC_CLK_TCK")
        stats: dict[int, tuple[int, float]] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                stats[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    except (OSError, ValueError):
        return None
    tree = {root}
    for _ in range(3):
        tree |= {pid for pid, (parent, _cpu) in stats.items() if parent in tree}
    return sum(stats[pid][1] for pid in tree if pid in stats)


def percentile(ordered: list[float], fraction: float) -> float:
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def summarize(run: Run) -> dict[str, float]:
    ordered = sorted(run.latencies)
    return {
        "n": len(ordered),
        "p50": statistics.median(ordered),
        "p95": percentile(ordered, 0.95),
        "p99": percentile(ordered, 0.99),
        "rps": len(ordered) / run.seconds,
        "client_cpu_ms_per_request": 1000 * run.client_cpu / max(1, len(ordered)),
        "server_cpu_ms_per_request": -1.0 if run.server_cpu is None else 1000 * run.server_cpu / max(1, len(ordered)),
    }


def report_line(name: str, run: Run) -> str:
    f = summarize(run)
    verdict = "OK" if f["p95"] < TARGET_MS else "over target"
    figures = (
        f"n={f['n']:>5.0f}  p50={f['p50']:6.1f}  p95={f['p95']:6.1f}  p99={f['p99']:6.1f} ms  "
        f"{f['rps']:6.0f} req/s  CPU/req: server {f['server_cpu_ms_per_request']:.2f} ms, "
        f"client {f['client_cpu_ms_per_request']:.2f} ms"
    )
    return f"{name:<26} {figures}  (p95 < {TARGET_MS:.0f} ms: {verdict})"


def run_loop(coroutine: Coroutine[Any, Any, Run], server: int) -> Run:
    before = process_tree_cpu(server)
    try:
        import uvloop  # the web extra installs it; the load generator then costs less CPU
    except ImportError:
        run = asyncio.run(coroutine)
    else:
        run = uvloop.run(coroutine)
    after = process_tree_cpu(server)
    if before is not None and after is not None:
        run.server_cpu = after - before
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prs", type=int, default=100_000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=1000, help="requests per page kind")
    parser.add_argument("--max-seconds", type=float, default=60.0, help="cap per page kind")
    parser.add_argument("--workers", type=int, default=None, help="server processes (default: prdigest serve's)")
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
        cold = run_loop(measure(base, warm, args.clients, 600), server.pid)
        workers = args.workers if args.workers is not None else "default"
        print(
            f"\n{total} PRs, {args.clients} concurrent connections (one asyncio loop), "
            f"server workers: {workers}, machine cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}\n"
        )
        print(report_line("report (first view, cold)", cold))
        results = {}
        for name, urls in kinds.items():
            results[name] = run_loop(measure(base, urls, args.clients, args.max_seconds), server.pid)
            print(report_line(name, results[name]))
        summary = {name: summarize(run) for name, run in results.items()}
        print("\n" + json.dumps(summary, indent=1))
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
