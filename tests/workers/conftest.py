"""Real parts for the worker tests: Debian's redis-server on a free loopback port, a fake
OpenAI-compatible LLM on 127.0.0.1 (fixed latency, counts calls in flight), real
`prdigest worker` processes, and the stored data in a comparable form."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("celery")
redis = pytest.importorskip("redis")

REDIS_BINARY = shutil.which("redis-server") or "/usr/bin/redis-server"
REPOSITORY = "example-org/synthetic"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class RedisServer:
    port: int
    folder: Path
    persistent: bool = False
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        durability = ["--appendonly", "yes", "--appendfsync", "always"] if self.persistent else ["--appendonly", "no"]
        self.process = subprocess.Popen(
            [
                REDIS_BINARY,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                *durability,
                "--dir",
                str(self.folder),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # a clean shutdown writes the append-only file
            self.process.wait(timeout=20)
        self.process = None

    def client(self) -> Any:
        return redis.Redis(port=self.port, decode_responses=True)


def _start_redis(folder: Path, *, persistent: bool = False) -> RedisServer:
    if not Path(REDIS_BINARY).exists():
        pytest.skip("redis-server is missing (Debian package redis-server; scripts/run-tests.sh installs it)")
    folder.mkdir(parents=True, exist_ok=True)
    server = RedisServer(free_port(), folder, persistent)
    server.start()
    return server


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One throwaway redis-server per test session (per xdist worker)."""
    server = _start_redis(tmp_path_factory.mktemp("redis"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def broker(redis_server: RedisServer) -> Iterator[RedisServer]:
    """The session's Redis, emptied for this test."""
    redis_server.client().flushall()
    yield redis_server
    redis_server.client().flushall()


@pytest.fixture
def persistent_broker(tmp_path: Path) -> Iterator[RedisServer]:
    """A Redis of its own that keeps its data over a restart (append-only file)."""
    server = _start_redis(tmp_path / "redis-aof", persistent=True)
    try:
        yield server
    finally:
        server.stop()


class FakeLLM:
    """POST /v1/chat/completions: a fixed valid answer after ``latency`` seconds."""

    def __init__(self, latency: float = 0.0) -> None:
        self.latency = latency
        self.lock = threading.Lock()
        self.in_flight = 0
        self.peak = 0
        self.calls = 0
        llm = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with llm.lock:
                    llm.in_flight += 1
                    llm.calls += 1
                    llm.peak = max(llm.peak, llm.in_flight)
                time.sleep(llm.latency)
                with llm.lock:
                    llm.in_flight -= 1
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
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the worker was killed mid-call

            def log_message(self, *_args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def fake_llm() -> Iterator[FakeLLM]:
    pytest.importorskip("openai")
    llm = FakeLLM(latency=0.05)
    try:
        yield llm
    finally:
        llm.close()


def prdigest_env(db_url: str, broker_url: str | None, llm: FakeLLM | None = None, **extra: str) -> dict[str, str]:
    """The environment of a prdigest process: the database, the broker, the LLM; no user config."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRDIGEST_", "GITHUB_", "GH_", "OPENAI_"))}
    env["PRDIGEST_CONFIG"] = os.devnull
    env["PRDIGEST_DB"] = db_url
    if broker_url is not None:
        env["PRDIGEST_BROKER_URL"] = broker_url
        env["PRDIGEST_QUEUE_VISIBILITY_TIMEOUT"] = "30"
        env["PRDIGEST_QUEUE_RETRY_DELAY"] = "1"
        env["PRDIGEST_QUEUE_MAX_RETRIES"] = "1"
    if llm is not None:
        env["PRDIGEST_LLM_BASE_URL"] = llm.base_url
        env["PRDIGEST_LLM_MODEL"] = "fake"
        env["PRDIGEST_LLM_API_KEY"] = "k"
        env["PRDIGEST_LLM_CONCURRENCY"] = "2"
    env.update(extra)
    return env


def run_cli(args: list[str], env: dict[str, str], *, cwd: Path | None = None, timeout: float = 300) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "prdigest", *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"prdigest {' '.join(args)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done.stdout


@dataclass
class Workers:
    env: dict[str, str]
    logs: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start(self, *args: str) -> subprocess.Popen[bytes]:
        with (self.logs / f"worker-{len(self.processes)}.log").open("wb") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "prdigest", "worker", "--loglevel", "INFO", *args],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: kill -9 takes the pool with it
            )
        self.processes.append(process)
        return process

    def kill9(self, process: subprocess.Popen[bytes]) -> None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    def stop_all(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                with_suppressed(lambda p=process: os.killpg(p.pid, signal.SIGTERM))
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with_suppressed(lambda p=process: os.killpg(p.pid, signal.SIGKILL))
                process.wait(timeout=5)

    def wait_ready(self, timeout: float = 120) -> None:
        """Until every started worker answers a ping (it then takes tasks at once)."""
        from prdigest.config import load_settings
        from prdigest.workers.app import Runtime, make_app

        app = make_app(Runtime(load_settings(self.env), self.env["PRDIGEST_DB"]))
        deadline = time.monotonic() + timeout
        while len(app.control.inspect(timeout=1.0).ping() or {}) < len(self.processes):
            assert time.monotonic() < deadline, self.log_text()

    def log_text(self) -> str:
        return "\n".join(path.read_text(errors="replace")[-4000:] for path in sorted(self.logs.glob("worker-*.log")))


def with_suppressed(call: Callable[[], object]) -> None:
    with contextlib.suppress(ProcessLookupError):
        call()


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Callable[[dict[str, str]], Workers]]:
    made: list[Workers] = []

    def make(env: dict[str, str]) -> Workers:
        logs = tmp_path / "worker-logs"
        logs.mkdir(exist_ok=True)
        made.append(Workers(env, logs))
        return made[-1]

    try:
        yield make
    finally:
        for group in made:
            group.stop_all()


def stored_data(db_url: str) -> dict[str, Any]:
    """Records, facts and narratives as comparable values (a narrative's cost, which holds
    timings, is left out; its cache key says what it was made from)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            records = connection.execute(text("SELECT number, record_hash FROM pull_requests ORDER BY number")).all()
            facts = connection.execute(
                text(
                    "SELECT p.number, f.cache_key, f.body FROM facts f JOIN pull_requests p ON p.id = f.pull_request_id"
                    " ORDER BY p.number"
                )
            ).all()
            narratives = connection.execute(
                text(
                    "SELECT p.number, n.lang, n.length, n.cache_key, n.body FROM narratives n"
                    " JOIN pull_requests p ON p.id = n.pull_request_id ORDER BY p.number, n.lang, n.length"
                )
            ).all()
    finally:
        engine.dispose()

    def without_cost(body: str) -> dict[str, Any]:
        data = dict(json.loads(body))
        data.pop("cost", None)
        return data

    return {
        "records": [tuple(row) for row in records],
        "facts": [(row[0], row[1], json.loads(row[2])) for row in facts],
        "narratives": [(row[0], row[1], row[2], row[3], without_cost(row[4])) for row in narratives],
    }


def make_history(path: Path, prs: int) -> Path:
    from prdigest.demo.synthetic import write_synthetic_history

    return write_synthetic_history(path, prs, files=40, lines=40)


def load_fake_github() -> Any:
    """tests/sources/github/fake_github.py, loaded by path (tests are not a package)."""
    import importlib.util

    name = "prdigest_tests_sources_github_fake"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).parents[1] / "sources" / "github" / "fake_github.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
