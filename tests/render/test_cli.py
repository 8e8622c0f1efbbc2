"""``prdigest report`` / ``feed`` / ``publish`` end to end over a SQLite database filled
through the Store API."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from tests.helpers.cli import offline_runner, run_ok

from prdigest.cli.main import cli
from prdigest.models.pullrequest import PullRequest
from prdigest.pipeline.analyze import default_registry, facts_cache_key
from prdigest.store import Store, facts_store
from prdigest.store.narrative_store import count_narratives


@pytest.fixture
def db(tmp_path: Path, seeds: Any) -> str:
    path = tmp_path / "prdigest.db"
    with Store.open(f"sqlite:///{path}") as store:
        store.upsert_prs([seeds.humming_pr(), seeds.cupy_pr()])
        registry = default_registry()
        for facts in (seeds.humming_facts(), seeds.cupy_facts()):
            state = facts_store.analysis_states(store, facts.repository, facts.number)[0]
            facts_store.save_facts(store, state.pull_request_id, facts, facts_cache_key(state.record_hash, registry))
    return str(path)


@pytest.fixture
def runner() -> CliRunner:
    # No LLM and no user config: the extractive narrator, deterministic output.
    return offline_runner()


def test_report_in_every_format(runner: CliRunner, db: str) -> None:
    md = run_ok(runner, "report", "vllm-project/vllm#43530", "--db", db)
    assert md.startswith("# PR #43530 完整报告\n")
    assert "`vllm/model_executor/layers/quantization/humming.py`（模块 量化模块" in md
    en = run_ok(runner, "report", "vllm-project/vllm#44301", "--lang", "en", "--length", "brief", "--db", db)
    assert en.startswith("# PR #44301 brief report\n")
    assert "# Risks and impact\n" in en
    assert "```" not in en
    data = json.loads(run_ok(runner, "report", "vllm-project/vllm#43530", "--format", "json", "--db", db))
    assert data["verdict"]["level"] == "read-in-depth"
    assert data["lang"] == "zh"
    html = run_ok(runner, "report", "vllm-project/vllm#43530", "--format", "html", "--db", db)
    assert html.startswith("<!DOCTYPE html>")
    assert "<script" not in html
    with Store.open(f"sqlite:///{db}") as store:
        # zh full (md, json, html share one cached narrative) + en brief
        assert count_narratives(store) == 2


def test_report_of_unknown_pr_fails_cleanly(runner: CliRunner, db: str) -> None:
    result = runner.invoke(cli, ["report", "vllm-project/vllm#1", "--db", db])
    assert result.exit_code != 0
    assert "no pull request vllm-project/vllm#1" in str(result.exception)


def test_report_analyzes_a_pr_without_facts(runner: CliRunner, db: str) -> None:
    with Store.open(f"sqlite:///{db}") as store:
        store.upsert_prs(
            [
                PullRequest(
                    repository="vllm-project/vllm",
                    number=5,
                    title="Tiny docs fix",
                    body="Fix a typo in the README because it confused users.",
                )
            ]
        )
    md = run_ok(runner, "report", "vllm-project/vllm#5", "--lang", "en", "--db", db)
    assert "“Fix a typo in the README because it confused users.”" in md


def test_feed_formats_and_window(runner: CliRunner, db: str) -> None:
    md = run_ok(runner, "feed", "vllm-project/vllm", "--db", db)
    assert md.index("Relax cupy-cuda13x pin") < md.index("Fix CuPy runtime deps")
    window = run_ok(
        runner,
        "feed",
        "vllm-project/vllm",
        "--since",
        "2026-05-01",
        "--until",
        "2026-06-01",
        "--lang",
        "en",
        "--format",
        "json",
        "--db",
        db,
    )
    assert [item["number"] for item in json.loads(window)["items"]] == [43530]
    atom = run_ok(runner, "feed", "vllm-project/vllm", "--format", "atom", "--limit", "1", "--db", db)
    root = ET.fromstring(atom.encode())
    assert len(root.findall("{http://www.w3.org/2005/Atom}entry")) == 1
    bad = runner.invoke(cli, ["feed", "vllm-project/vllm", "--since", "yesterday", "--db", db])
    assert bad.exit_code != 0


def test_publish_writes_the_site(runner: CliRunner, db: str, tmp_path: Path) -> None:
    out = tmp_path / "site"
    result = runner.invoke(cli, ["publish", "vllm-project/vllm", "--out", str(out), "--db", db], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    for number in (43530, 44301):
        for lang in ("zh", "en"):
            for length in ("full", "brief"):
                for ext in ("md", "html", "json"):
                    assert (out / "reports" / f"{number}.{lang}.{length}.{ext}").stat().st_size > 0
    for lang in ("zh", "en"):
        for name in ("md", "html", "json", "atom.xml"):
            assert (out / f"feed.{lang}.{name}").exists()
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="reports/43530.zh.full.html"' in index
    assert "<script" not in index
    assert "reports/44301.en.brief.md" in (out / "index.md").read_text(encoding="utf-8")
    # a second publish narrates nothing new
    with Store.open(f"sqlite:///{db}") as store:
        before = count_narratives(store)
    run_ok(runner, "publish", "vllm-project/vllm", "--out", str(out), "--lang", "en", "--db", db)
    with Store.open(f"sqlite:///{db}") as store:
        assert count_narratives(store) == before == 8
