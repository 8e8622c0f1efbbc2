"""Web benchmark: p50 / p95 latency of the feed, report and search pages under concurrency.

Fills a SQLite database with N synthetic PRs and their facts (through the store's batch writers),
builds the search index with `prdigest.store.search_store.reindex`, starts ``prdigest serve``
on a free loopback port exactly as a user would (its default worker count unless --workers is
given), and drives it with C concurrent connections.

Load generator: ``wrk`` (C, one thread: ``wrk -t1 -cC -dS --latency`` with a Lua script that
walks the page kind's URL list, read from a temp file) when it is on PATH, else ONE asyncio
loop in this process (httpx.AsyncClient, at most C connections). On a 2-core machine the
generator shares the cores with the server, and a Python client costs ~1 ms of CPU a request,
which shows up as server latency; wrk costs a few percent of that. ``--generator`` picks one.
Prints p50/p95/p99 and requests/s per page next to the target (p95 < 50 ms), the machine's
core count and the CPU time the server and the load generator used per request.

    .venv/bin/python benchmarks/web.py                 # 100,000 PRs, 20 clients
    .venv/bin/python benchmarks/web.py --prs 10000     # quicker
    .venv/bin/python benchmarks/web.py --db /tmp/b.db  # keep the filled database for the next run
    .venv/bin/python benchmarks/web.py --generator python  # the Python client even when wrk exists
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import shutil
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
from urllib.parse import quote

import httpx

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
from prdigest.store.facts_store import analysis_states, facts_row, save_facts_rows
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
    batch = 2000
    for first in range(1, count + 1, batch):
        prs: list[PullRequest] = []
        results: dict[int, Facts] = {}
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
            prs.append(pr)
            results[number] = Facts(
                repository=REPO,
                number=number,
                files=FilesFacts(
                    files=[FileFact(path=f"src/{m}/x.py", module=m, is_key=True) for m in modules], modules=modules
                ),
                risks=RisksFacts(tags=[RiskTag(tag=r, label_zh=r, label_en=r, evidence="synthetic") for r in risks]),
                verdict=VerdictFacts(level=level, score=rng.random(), reasons=[VerdictReason(code="size", detail="x")]),
            )
        # Through the store's own writers, as `sync` and `analyze` would write them.
        store.upsert_prs(prs, batch_size=batch)
        ids = {state.number: state.pull_request_id for state in analysis_states(store, REPO) if state.number in results}
        save_facts_rows(store, [facts_row(ids[number], fact, "bench") for number, fact in results.items()])


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


# Walks the URL list (one path a line, from the file given after "--"), round robin; done()
# prints the percentiles wrk's own report lacks (p95) as one machine-readable line.
WRK_SCRIPT = """
local urls = {}
local next_index = 0
function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then urls[#urls + 1] = line end
  end
end
function request()
  next_index = next_index % #urls + 1
  return wrk.format("GET", urls[next_index])
end
function done(summary, latency, requests)
  io.write(string.format("PRDIGEST n=%d non2xx=%d errors=%d p50=%d p90=%d p95=%d p99=%d\\n",
    summary.requests, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(95), latency:percentile(99)))
end
"""
_WRK_DONE = re.compile(r"PRDIGEST n=(\d+) non2xx=(\d+) errors=(\d+) p50=(\d+) p90=(\d+) p95=(\d+) p99=(\d+)")
_WRK_DISTRIBUTION = re.compile(r"^\s*(50|90|99)%\s+([\d.]+)(us|ms|s)\s*$", re.MULTILINE)
_WRK_RATE = re.compile(r"Requests/sec:\s*([\d.]+)")
_UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


@dataclass
class Figures:
    """One page kind's result, whichever generator measured it."""

    n: int
    p50: float
    p95: float
    p99: float
    rps: float
    client_cpu: float
    server_cpu: float | None
    p90: float | None = None

    def as_dict(self) -> dict[str, float]:
        per = max(1, self.n)
        return {
            "n": self.n,
            "p50": round(self.p50, 2),
            "p90": round(self.p90 if self.p90 is not None else -1.0, 2),
            "p95": round(self.p95, 2),
            "p99": round(self.p99, 2),
            "rps": round(self.rps, 1),
            "client_cpu_ms_per_request": round(1000 * self.client_cpu / per, 3),
            "server_cpu_ms_per_request": -1.0 if self.server_cpu is None else round(1000 * self.server_cpu / per, 3),
        }


def parse_wrk(output: str) -> tuple[dict[str, float], float, dict[str, int]]:
    """wrk's latency distribution (p50/p90/p99 in ms), requests/s, and the done() line's numbers
    (n, non2xx, errors, p50/p90/p95/p99 in microseconds)."""
    distribution = {f"p{m[0]}": float(m[1]) * _UNIT_MS[m[2]] for m in _WRK_DISTRIBUTION.findall(output)}
    rate = _WRK_RATE.search(output)
    done = _WRK_DONE.search(output)
    if done is None or rate is None or len(distribution) != 3:
        raise RuntimeError(f"unexpected wrk output:\n{output}")
    names = ("n", "non2xx", "errors", "p50", "p90", "p95", "p99")
    return distribution, float(rate.group(1)), {name: int(g) for name, g in zip(names, done.groups(), strict=True)}


def run_wrk(base: str, urls: list[str], clients: int, seconds: float, server: int) -> Figures:
    with tempfile.TemporaryDirectory(prefix="prdigest-wrk-") as folder:
        return _run_wrk(base, urls, clients, seconds, server, Path(folder))


def _run_wrk(base: str, urls: list[str], clients: int, seconds: float, server: int, folder: Path) -> Figures:
    script = folder / "walk.lua"
    script.write_text(WRK_SCRIPT, encoding="utf-8")
    url_file = folder / "urls.txt"
    # wrk sends the path as given and rejects raw non-ASCII ones: percent-encode like httpx does.
    url_file.write_text("\n".join(quote(url, safe="/?=&+%") for url in urls) + "\n", encoding="utf-8")
    command = [
        "wrk", "-t1", f"-c{clients}", f"-d{max(1, round(seconds))}s", "--latency", "--timeout", "30s",
        "-s", str(script), base, "--", str(url_file),
    ]  # fmt: skip
    before_server = process_tree_cpu(server)
    before_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    output = subprocess.run(command, capture_output=True, text=True, check=True, timeout=seconds + 60).stdout
    after_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    after_server = process_tree_cpu(server)
    distribution, rate, done = parse_wrk(output)
    if done["non2xx"] or done["errors"]:
        raise RuntimeError(f"wrk saw {done['non2xx']} non-2xx responses, {done['errors']} socket errors:\n{output}")
    client_cpu = (after_children.ru_utime - before_children.ru_utime) + (
        after_children.ru_stime - before_children.ru_stime
    )
    server_cpu = None if before_server is None or after_server is None else after_server - before_server
    # p50/p90/p99 from wrk's printed distribution; p95 (not printed) from the done() hook.
    return Figures(
        done["n"],
        distribution["p50"],
        done["p95"] / 1000,
        distribution["p99"],
        rate,
        client_cpu,
        server_cpu,
        p90=distribution["p90"],
    )


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


def python_figures(run: Run) -> Figures:
    ordered = sorted(run.latencies)
    return Figures(
        n=len(ordered),
        p50=statistics.median(ordered),
        p90=percentile(ordered, 0.90),
        p95=percentile(ordered, 0.95),
        p99=percentile(ordered, 0.99),
        rps=len(ordered) / run.seconds,
        client_cpu=run.client_cpu,
        server_cpu=run.server_cpu,
    )


def report_line(name: str, figures: Figures) -> str:
    f = figures.as_dict()
    verdict = "OK" if f["p95"] < TARGET_MS else "over target"
    shown = (
        f"n={f['n']:>5.0f}  p50={f['p50']:6.1f}  p95={f['p95']:6.1f}  p99={f['p99']:6.1f} ms  "
        f"{f['rps']:6.0f} req/s  CPU/req: server {f['server_cpu_ms_per_request']:.2f} ms, "
        f"client {f['client_cpu_ms_per_request']:.2f} ms"
    )
    return f"{name:<34} {shown}  (p95 < {TARGET_MS:.0f} ms: {verdict})"


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


def distinct_feed_urls(rng: random.Random, pages: int, count: int) -> list[str]:
    """Up to `count` different feed URLs (page x language x filter), shuffled."""
    filters = ["", "&verdict=quick-read", f"&module={MODULES[0]}", f"&risk={RISKS[0]}"]
    urls = [
        f"/repos/{REPO}?lang={lang}&page={page}{extra}"
        for page in range(1, min(pages, 200) + 1)
        for lang in ("zh", "en")
        for extra in filters
    ]
    rng.shuffle(urls)
    return urls[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prs", type=int, default=100_000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=1000, help="requests per page kind")
    parser.add_argument("--max-seconds", type=float, default=60.0, help="cap per page kind")
    parser.add_argument("--workers", type=int, default=None, help="server processes (default: prdigest serve's)")
    parser.add_argument("--db", type=Path, default=None, help="reuse/keep this database file")
    parser.add_argument(
        "--generator",
        choices=("auto", "wrk", "python"),
        default="auto",
        help="load generator: wrk when on PATH (auto), or the in-process Python client",
    )
    parser.add_argument(
        "--wrk-seconds", type=float, default=10.0, help="wrk's run per page kind (capped by --max-seconds)"
    )
    args = parser.parse_args()

    db = args.db or Path(tempfile.mkdtemp(prefix="prdigest-bench-")) / "bench.db"
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
        # Every URL distinct (as far as --requests goes): what a page costs when no cache has it.
        "feed (distinct URLs, uncached)": distinct_feed_urls(rng, pages, args.requests),
    }
    use_wrk = args.generator == "wrk" or (args.generator == "auto" and shutil.which("wrk") is not None)
    if args.generator == "wrk" and shutil.which("wrk") is None:
        parser.error("--generator wrk: wrk is not on PATH (Debian: apt-get install wrk)")
    port = free_port()
    server = start_server(db, port, args.workers)
    base = f"http://127.0.0.1:{port}"
    try:
        # Warm-up: first views narrate and cache the sampled reports (a write each).
        warm = [f"/repos/{REPO}/pulls/{n}?lang={lang}" for n in report_numbers for lang in ("zh", "en")]
        cold = python_figures(run_loop(measure(base, warm, args.clients, 600), server.pid))
        workers = args.workers if args.workers is not None else "default"
        generator = (
            f"wrk -t1 -c{args.clients} -d{max(1, round(min(args.wrk_seconds, args.max_seconds)))}s --latency"
            if use_wrk
            else "Python client, one asyncio loop"
        )
        print(
            f"\n{total} PRs, {args.clients} concurrent connections, load generator: {generator}, "
            f"server workers: {workers}, machine cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}\n"
        )
        print(report_line("report (first view, cold; Python)", cold))
        results: dict[str, Figures] = {}
        for name, urls in kinds.items():
            if use_wrk:
                seconds = min(args.wrk_seconds, args.max_seconds)
                results[name] = run_wrk(base, urls, args.clients, seconds, server.pid)
            else:
                results[name] = python_figures(
                    run_loop(measure(base, urls, args.clients, args.max_seconds), server.pid)
                )
            print(report_line(name, results[name]))
        summary = {"generator": "wrk" if use_wrk else "python"} | {
            name: figures.as_dict() for name, figures in results.items()
        }
        print("\n" + json.dumps(summary, indent=1))
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
