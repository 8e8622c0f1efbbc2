"""``prdigest llm check`` and Ctrl-C during LLM narration, as real processes against a local
OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.helpers.gitrepo import GitRepoBuilder
from tests.narrate.llm.conftest import (
    FakeLLMServer,
    Scripted,
    completion,
    error,
    running_llm_server,
    schema_filled,
)

REPO = "example-org/widgets"


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    pytest.importorskip("openai")
    with running_llm_server() as fake:
        yield fake


def env_for(server: FakeLLMServer, tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRDIGEST_", "OPENAI_"))}
    env.update(
        PRDIGEST_CONFIG=str(tmp_path / "none.toml"),
        PRDIGEST_LLM_BASE_URL=server.base_url,
        PRDIGEST_LLM_MODEL="test-model",
        PRDIGEST_LLM_TIMEOUT="60",
        PRDIGEST_DB=str(tmp_path / "default.db"),  # never the user's database
    )
    (tmp_path / "none.toml").write_text("", encoding="utf-8")
    env.update(extra)
    return env


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "prdigest", *args], capture_output=True, text=True, env=env, timeout=120, check=False
    )


def test_llm_check_on_a_server_with_json_schema(server: FakeLLMServer, tmp_path: Path) -> None:
    server.respond = lambda payload: completion(json.dumps({"ok": True, "word": "ready"}))
    result = run(["llm", "check"], env_for(server, tmp_path))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "test-model listed" in out
    assert "test call       ok in" in out
    assert "answer valid" in out
    assert "JSON schema (strict)" in out
    assert "sent as max_tokens" in out
    assert "token usage     reported" in out
    assert len(out.splitlines()) <= 24  # one screen


def test_llm_check_on_a_server_without_response_format(server: FakeLLMServer, tmp_path: Path) -> None:
    def llama(payload: dict[str, Any]) -> Scripted:
        if "response_format" in payload:
            return error(400, message="response_format is not supported")
        return completion('Here you go: {"ok": true, "word": "ready"}', prompt_tokens=None, completion_tokens=None)

    server.respond = llama
    server.models = ["other-model"]
    result = run(["llm", "check"], env_for(server, tmp_path))
    assert result.returncode == 0, result.stderr
    assert "NOT listed" in result.stdout
    assert "no response_format" in result.stdout
    assert "response_format json_schema, response_format json_object" in result.stdout
    assert "missing: costs are estimated" in result.stdout


def test_llm_check_on_a_failing_server(server: FakeLLMServer, tmp_path: Path) -> None:
    server.respond = lambda payload: error(401)
    result = run(["llm", "check"], env_for(server, tmp_path, PRDIGEST_LLM_API_KEY="sk-secret-value-123"))
    assert result.returncode != 0
    assert "FAILED" in result.stdout
    assert "HTTP 401" in result.stdout
    assert "sk-secret-value-123" not in result.stdout + result.stderr


def test_ctrl_c_cancels_calls_in_flight_and_exits_130(server: FakeLLMServer, tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# widgets\n"}, "Initial commit")
    for n in range(1, 5):
        repo.squash_pr(n, f"Change {n}", {f"widgets/m{n}.py": f"x = {n}\n"})
    db = tmp_path / "db.sqlite"
    env = env_for(server, tmp_path, PRDIGEST_LLM_CONCURRENCY="2")
    synced = run(["sync", "git", str(repo.path), "--repo", REPO, "--db", str(db)], env)
    assert synced.returncode == 0, synced.stderr
    server.respond = lambda payload: Scripted(body={}, delay=8.0)  # far slower than the 1 s allowed

    process = subprocess.Popen(
        [sys.executable, "-m", "prdigest", "feed", REPO, "--db", str(db)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while len(server.requests) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(server.requests) >= 2, "the calls never started"
        process.send_signal(signal.SIGINT)
        started = time.monotonic()
        code = process.wait(timeout=10)
        elapsed = time.monotonic() - started
    finally:
        if process.poll() is None:
            process.kill()
    _out, err = process.communicate()
    assert code == 130, err
    assert elapsed < 1.0
    assert "Interrupted" in err
    # A cancelled call is no failure: nothing was stored as a fallback to back off from.
    import sqlite3

    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT count(*) FROM narratives WHERE cache_key LIKE '%:fallback'").fetchone()
    assert rows[0] == 0


def test_a_400_on_json_schema_is_learnt_once_across_runs(server: FakeLLMServer, tmp_path: Path) -> None:
    """Two separate processes narrate against a server that answers 400 to ``json_schema``:
    the first learns it (in the database), the second never asks for it; ``llm check``
    shows what is remembered and refreshes it. The API key is nowhere in the table."""
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# widgets\n"}, "Initial commit")
    repo.squash_pr(1, "Add the parser", {"widgets/parser.py": "def parse(text):\n    return text\n"})
    repo.squash_pr(2, "Strip input", {"widgets/parser.py": "def parse(text):\n    return text.strip()\n"})
    db = tmp_path / "db.sqlite"
    key = "sk-remembered-nowhere-0123"
    env = env_for(server, tmp_path, PRDIGEST_LLM_API_KEY=key)
    assert run(["sync", "git", str(repo.path), "--repo", REPO, "--db", str(db)], env).returncode == 0

    def no_schema(payload: dict[str, Any]) -> Scripted:
        if payload.get("response_format", {}).get("type") == "json_schema":
            return error(400, message="json_schema is not supported")
        return completion(json.dumps({"one_line": "x"}))  # shape does not matter here

    server.respond = no_schema

    def schema_requests() -> int:
        return sum(1 for r in server.requests if r.get("response_format", {}).get("type") == "json_schema")

    first = run(["report", f"{REPO}#1", "--db", str(db)], env)
    assert first.returncode == 0, first.stderr
    assert schema_requests() == 1
    asked = len(server.requests)
    second = run(["report", f"{REPO}#2", "--db", str(db)], env)
    assert second.returncode == 0, second.stderr
    assert len(server.requests) > asked  # it did call the model
    assert schema_requests() == 1  # but never with json_schema again
    assert all(r["response_format"]["type"] == "json_object" for r in server.requests[asked:])

    import sqlite3

    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT * FROM llm_endpoints").fetchall()
    assert len(rows) == 1
    assert key not in repr(rows)
    assert "json_object" in repr(rows)

    # `llm check` shows what is remembered, probes afresh (json_schema once more) and keeps it.
    server.respond = lambda payload: completion(json.dumps({"ok": True, "word": "ready"}))
    checked = run(["llm", "check", "--db", str(db)], env)
    assert checked.returncode == 0, checked.stderr
    assert "remembered      response_format json_object, max_tokens" in checked.stdout
    assert "now remembered  response_format json_schema, max_tokens" in checked.stdout
    assert key not in checked.stdout + checked.stderr
    asked = len(server.requests)
    assert run(["report", f"{REPO}#1", "--refresh", "--db", str(db)], env).returncode == 0
    assert server.requests[asked]["response_format"]["type"] == "json_schema"


def test_llm_check_without_a_database_remembers_nothing(server: FakeLLMServer, tmp_path: Path) -> None:
    server.respond = lambda payload: completion(json.dumps({"ok": True, "word": "ready"}))
    result = run(["llm", "check", "--db", str(tmp_path / "absent.db")], env_for(server, tmp_path))
    assert result.returncode == 0, result.stderr
    assert "nothing: no database yet" in result.stdout
    assert not (tmp_path / "absent.db").exists()


def schema_answer(paragraph: str) -> Any:
    """A schema-following server whose feed paragraph is `paragraph`."""

    def answer(payload: dict[str, Any]) -> Scripted:
        schema = payload["response_format"]["json_schema"]["schema"]
        values: dict[str, Any] = {
            name: schema_filled(node, "The parser strips its input.") for name, node in schema["properties"].items()
        }
        if "feed_paragraph" in values:
            values["feed_paragraph"] = paragraph
        return completion(json.dumps(values))

    return answer


def test_publish_refresh_narrates_again_even_when_cached(server: FakeLLMServer, tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# widgets\n"}, "Initial commit")
    repo.squash_pr(1, "Add the parser", {"widgets/parser.py": "def parse(text):\n    return text\n"})
    repo.squash_pr(2, "Strip input", {"widgets/parser.py": "def parse(text):\n    return text.strip()\n"})
    db = tmp_path / "db.sqlite"
    env = env_for(server, tmp_path)
    assert run(["sync", "git", str(repo.path), "--repo", REPO, "--db", str(db)], env).returncode == 0
    site = tmp_path / "site"
    publish = ["publish", REPO, "--out", str(site), "--lang", "en", "--db", str(db)]

    server.respond = schema_answer("First paragraph of the model.")
    assert run(publish, env).returncode == 0
    first_calls = len(server.requests)
    assert first_calls == 4  # 2 PRs x (full, brief)
    assert "First paragraph of the model." in (site / "feed.en.md").read_text(encoding="utf-8")

    server.respond = schema_answer("Second paragraph of the model.")
    assert run(publish, env).returncode == 0
    assert len(server.requests) == first_calls  # cached: no call
    assert "First paragraph" in (site / "feed.en.md").read_text(encoding="utf-8")

    refreshed = run([*publish, "--refresh"], env)
    assert refreshed.returncode == 0, refreshed.stderr
    assert len(server.requests) == 2 * first_calls  # every narrative once more, no more
    feed = (site / "feed.en.md").read_text(encoding="utf-8")
    assert "Second paragraph of the model." in feed
    assert "First paragraph" not in feed


@pytest.mark.parametrize("command", ["report", "feed", "publish"])
def test_commands_with_an_llm_quote_a_fixed_github_issue(server: FakeLLMServer, tmp_path: Path, command: str) -> None:
    from tests.pipeline.test_linked_context import ROOT_CAUSE, github_pr
    from tests.sources.github.fake_github import REPOSITORY, FakeGitHub

    from prdigest.store import Store

    db = tmp_path / "db.sqlite"
    with Store.open(f"sqlite:///{db}") as store:
        store.upsert_prs([github_pr()])
    server.respond = schema_answer("The model's paragraph.")
    args = {
        "report": ["report", f"{REPOSITORY}#5"],
        "feed": ["feed", REPOSITORY, "--lang", "en"],
        "publish": ["publish", REPOSITORY, "--lang", "en", "--out", str(tmp_path / "site")],
    }[command]
    with FakeGitHub() as github:
        github.issues["3"] = {"number": 3, "title": "en readers get zh pages", "body": ROOT_CAUSE}
        env = env_for(server, tmp_path, PRDIGEST_GITHUB_API_URL=github.url)
        result = run([*args, "--db", str(db)], env)
        assert result.returncode == 0, result.stderr
        assert github.count(f"GET /repos/{REPOSITORY}/issues/3") == 1
    assert any(ROOT_CAUSE in prompt for prompt in server.user_prompts())
