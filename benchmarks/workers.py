"""Throughput of the Celery workers (issue #14), next to the in-process paths.

1. Analysis: PRs analyzed per second over a history of 2,000 PRs by 1 and by 2 worker
   processes (each ``prdigest worker --queues analyze --concurrency 1``), next to the
   in-process ``prdigest analyze --jobs 2``. Each run starts from the same synced database.
2. Narration: narratives per second against a fake OpenAI-compatible LLM that answers after
   0.5 s, with the LLM concurrency (``PRDIGEST_LLM_CONCURRENCY``, held across workers through
   Redis) at 1, 8 and 32, on a ``--pool threads`` worker of that many threads.

Needs ``redis-server`` (Debian package) and the ``queue`` and ``llm`` extras. Usage::

    python benchmarks/workers.py [--prs 2000] [--narrations 64] [--workdir DIR]

The figures are printed, not asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

PRDIGEST = [sys.executable, "-m", "prdigest"]
REPOSITORY = "example-org/synthetic"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    port = free_port()
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    process = subprocess.Popen([*command, "--dir", str(folder)], stdout=subprocess.DEVNULL)
    try:
        import redis

        client = redis.Redis(port=port)
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait()


class SlowLLM(BaseHTTPRequestHandler):
    latency = 0.5

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        time.sleep(self.latency)
        answer = {"one_line": "Changes a few helpers.", "recommendation": "Skim it.", "motivation": "Upkeep."}
        body = json.dumps(
            {
                "id": "x",
                "object": "chat.completion",
                "created": 0,
                "model": "fake",
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


@contextmanager
def slow_llm() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), SlowLLM)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        httpd.shutdown()
        httpd.server_close()


def environment(db: Path, broker: str | None, llm: str | None = None, concurrency: int = 4) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRDIGEST_", "GITHUB_", "GH_"))}
    env.update(PRDIGEST_CONFIG=os.devnull, PRDIGEST_DB=f"sqlite:///{db}")
    if broker:
        env["PRDIGEST_BROKER_URL"] = broker
    if llm:
        env.update(
            PRDIGEST_LLM_BASE_URL=llm,
            PRDIGEST_LLM_MODEL="fake",
            PRDIGEST_LLM_API_KEY="k",
            PRDIGEST_LLM_CONCURRENCY=str(concurrency),
        )
    return env


def fresh_copy(source: Path, target: Path) -> None:
    """Copy a database, leaving no write-ahead log of an earlier run next to the copy."""
    for leftover in (target, target.with_name(target.name + "-wal"), target.with_name(target.name + "-shm")):
        leftover.unlink(missing_ok=True)
    shutil.copy(source, target)


@contextmanager
def workers(env: dict[str, str], count: int, *args: str) -> Iterator[None]:
    logs = Path(env["PRDIGEST_DB"].removeprefix("sqlite:///")).with_suffix(".log")
    with logs.open("wb") as log:
        processes = [
            subprocess.Popen(
                [*PRDIGEST, "worker", "--loglevel", "INFO", *args],
                env=env,
                start_new_session=True,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            for _ in range(count)
        ]
    try:
        wait_for_workers(env, count)
        yield
    finally:
        for process in processes:
            process.terminate()  # the main process: a warm shutdown lets the pool finish
        for process in processes:
            process.wait()


def wait_for_workers(env: dict[str, str], count: int) -> None:
    from prdigest.config import load_settings
    from prdigest.workers.app import Runtime, make_app

    app = make_app(Runtime(load_settings(env), env["PRDIGEST_DB"]))
    for _ in range(120):
        if len(app.control.inspect(timeout=1.0).ping() or {}) >= count:
            return
        time.sleep(0.5)
    raise RuntimeError("the workers did not start")


def enqueue_step(env: dict[str, str], step: str, jobs: list[tuple[Any, ...]]) -> tuple[Any, str]:
    """Open a pass whose ``step`` has these tasks, enqueue them, return (passes, pass id)."""
    from prdigest.config import load_settings
    from prdigest.workers.app import Runtime, make_app, send
    from prdigest.workers.passes import Passes, new_pass_id

    runtime = Runtime(load_settings(env), env["PRDIGEST_DB"])
    app = make_app(runtime)
    passes = Passes(runtime.redis())
    pass_id = new_pass_id()
    passes.start(pass_id, [REPOSITORY])
    passes.open_step(pass_id, REPOSITORY, step, len(jobs))
    for job in jobs:
        send(app, f"prdigest.{step}", pass_id, REPOSITORY, *job)
    return passes, pass_id


def wait_past(passes: Any, pass_id: str, step: str) -> None:
    while True:
        progress = passes.progress(pass_id)
        if progress.repositories[0].status != step:
            return
        time.sleep(0.05)


def analysis_rates(workdir: Path, synced: Path, prs: int) -> None:
    in_process = workdir / "inprocess.db"
    fresh_copy(synced, in_process)
    start = time.perf_counter()
    subprocess.run(
        [*PRDIGEST, "analyze", "--jobs", "2", "--db", str(in_process)], check=True, stdout=subprocess.DEVNULL
    )
    seconds = time.perf_counter() - start
    print(f"analyze --jobs 2 (in process)  : {seconds:7.1f} s  {prs / seconds:7.1f} PRs/s")
    for count in (1, 2):
        db = workdir / f"workers{count}.db"
        fresh_copy(synced, db)
        with redis_server(workdir) as broker:
            env = environment(db, broker)
            # A follow without a folder: the pass ends after narration (not run here).
            subprocess.run([*PRDIGEST, "follow", "add", REPOSITORY, "--lang", "en"], env=env, check=True)
            with workers(env, count, "--queues", "analyze", "--concurrency", "1"):
                numbers = [(n,) for n in range(1, prs + 1)]
                start = time.perf_counter()
                passes, pass_id = enqueue_step(env, "analyze", numbers)
                wait_past(passes, pass_id, "analyze")
                seconds = time.perf_counter() - start
        print(f"{count} worker process(es)         : {seconds:7.1f} s  {prs / seconds:7.1f} PRs/s")


def narration_rates(workdir: Path, synced: Path, narrations: int) -> None:
    analyzed = workdir / "analyzed.db"
    fresh_copy(synced, analyzed)
    subprocess.run([*PRDIGEST, "analyze", "--db", str(analyzed)], check=True, stdout=subprocess.DEVNULL)
    with slow_llm() as llm:
        for concurrency in (1, 8, 32):
            count = narrations // 4 if concurrency == 1 else narrations  # 1 s per narration at 1
            db = workdir / f"narrate{concurrency}.db"
            fresh_copy(analyzed, db)
            with redis_server(workdir) as broker:
                env = environment(db, broker, llm, concurrency)
                subprocess.run([*PRDIGEST, "follow", "add", REPOSITORY, "--lang", "en"], env=env, check=True)
                args = ("--queues", "narrate", "--pool", "threads", "--concurrency", str(concurrency))
                with workers(env, 1, *args):
                    jobs = [(n, "en", "brief") for n in range(1, count + 1)]
                    start = time.perf_counter()
                    passes, pass_id = enqueue_step(env, "narrate", jobs)
                    wait_past(passes, pass_id, "narrate")
                    seconds = time.perf_counter() - start
            print(
                f"LLM concurrency {concurrency:>2}             : {count:4d} narratives in {seconds:6.1f} s  "
                f"{count / seconds:6.2f} /s"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prs", type=int, default=2000, help="PRs in the synthetic history")
    parser.add_argument("--narrations", type=int, default=128, help="narratives per run at concurrency 8 and 32")
    parser.add_argument("--workdir", type=Path, help="where to build (default: a temp dir)")
    parser.add_argument("--skip-analysis", action="store_true")
    parser.add_argument("--skip-narration", action="store_true")
    args = parser.parse_args()

    from prdigest.demo.synthetic import write_synthetic_history

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="prdigest-workers-"))
    workdir.mkdir(parents=True, exist_ok=True)
    repo = workdir / "repo"
    if not repo.exists():
        write_synthetic_history(repo, args.prs)
    synced = workdir / "synced.db"
    if not synced.exists():
        subprocess.run(
            [*PRDIGEST, "sync", "git", str(repo), "--db", str(synced)], check=True, stdout=subprocess.DEVNULL
        )
    print(f"history: {args.prs} PRs ({repo}); {os.cpu_count()} CPUs")
    if not args.skip_analysis:
        analysis_rates(workdir, synced, args.prs)
    if not args.skip_narration:
        narration_rates(workdir, synced, args.narrations)


if __name__ == "__main__":
    main()
