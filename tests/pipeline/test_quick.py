"""The SQLite-only answers of ``prdigest analyze`` (nothing new) and ``prdigest report`` (a
cached report) are the normal path's answers, and a cached report never outlives its inputs."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import text
from tests.helpers.cli import offline_runner, run_ok

from prdigest.pipeline.analyze import facts_cache_key
from prdigest.pipeline.quick import cached_report, code_fingerprint, nothing_to_analyze
from prdigest.store import Store, facts_store, quick
from prdigest.store.report_cache_store import report_epoch, save_report
from prdigest.store.testing import engine_of

HUMMING = ("vllm-project/vllm", 43530)


@pytest.fixture
def db(tmp_path: Path, seeds: Any) -> str:
    path = tmp_path / "prdigest.db"
    with Store.open(f"sqlite:///{path}") as store:
        store.upsert_prs([seeds.humming_pr(), seeds.cupy_pr()])
        for facts in (seeds.humming_facts(), seeds.cupy_facts()):
            state = facts_store.analysis_states(store, facts.repository, facts.number)[0]
            facts_store.save_facts(store, state.pull_request_id, facts, facts_cache_key(state.record_hash))
    return str(path)


@pytest.fixture
def runner() -> CliRunner:
    return offline_runner()


def _report(runner: CliRunner, db: str, *options: str) -> str:
    return run_ok(runner, "report", f"{HUMMING[0]}#{HUMMING[1]}", "--db", db, *options)


@pytest.mark.parametrize("fmt", ["md", "json", "html"])
@pytest.mark.parametrize(("lang", "length"), [("zh", "full"), ("en", "brief")])
def test_a_cached_report_is_the_report_byte_for_byte(
    runner: CliRunner, db: str, fmt: str, lang: str, length: str
) -> None:
    options = ("--format", fmt, "--lang", lang, "--length", length)
    first = _report(runner, db, *options)
    stored = cached_report(db, *HUMMING, lang, length, fmt)
    assert stored is not None  # the first report (which cached its narrative) was kept
    assert _report(runner, db, *options) == first
    # Another language, length or format is another document.
    other = "brief" if length == "full" else "full"
    assert cached_report(db, *HUMMING, lang, other, fmt) is None


def test_changed_facts_change_the_report(runner: CliRunner, db: str, seeds: Any) -> None:
    before = json.loads(_report(runner, db, "--format", "json"))
    facts = seeds.humming_facts()
    changed = facts.model_copy(update={"verdict": facts.verdict.model_copy(update={"score": 0.25})})
    with Store.open(f"sqlite:///{db}") as store:
        state = facts_store.analysis_states(store, *HUMMING)[0]
        facts_store.save_facts(store, state.pull_request_id, changed, state.cache_key or "")
    assert cached_report(db, *HUMMING, "zh", "full", "json") is None
    after = json.loads(_report(runner, db, "--format", "json"))
    assert before["verdict"]["score"] != 0.25
    assert after["verdict"]["score"] == 0.25


def test_a_changed_narrative_changes_the_report(runner: CliRunner, db: str) -> None:
    before = _report(runner, db)
    with Store.open(f"sqlite:///{db}") as store, engine_of(store).begin() as connection:
        rows = connection.execute(text("SELECT id, body FROM narratives")).all()
        assert rows
        for row_id, body in rows:
            data = json.loads(body)
            data["one_line"] = "A sentence nobody wrote before."
            data["motivation"] = "A motivation nobody wrote before."
            connection.execute(
                text("UPDATE narratives SET body = :body WHERE id = :id"), {"body": json.dumps(data), "id": row_id}
            )
    after = _report(runner, db)
    assert after != before
    assert "nobody wrote before" in after


def test_every_table_moves_the_epoch(db: str) -> None:
    """A table a report could read without a trigger would let a cached report go stale."""
    connection = sqlite3.connect(db)
    tables = [r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    virtual = [r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL%'")]
    triggers = {
        r[0] for r in connection.execute("SELECT tbl_name || ':' || sql FROM sqlite_master WHERE type = 'trigger'")
    }
    own = {"alembic_version", "report_cache", "report_epoch"}
    checked = [t for t in tables if t not in own and not any(t == v or t.startswith(v + "_") for v in virtual)]
    assert {"pull_requests", "facts", "narratives", "pr_links", "dependency_changes"} <= set(checked)
    for table in checked:
        for event in ("INSERT", "UPDATE", "DELETE"):
            assert any(t.startswith(f"{table}:") and f"AFTER {event} ON {table} " in t for t in triggers), (
                table,
                event,
            )


def test_a_report_made_while_someone_wrote_is_not_kept(db: str, seeds: Any) -> None:
    with Store.open(f"sqlite:///{db}") as store:
        epoch = report_epoch(store)
        assert epoch is not None
        store.upsert_prs([seeds.humming_pr().model_copy(update={"title": "Retitled"})])
        assert not save_report(store, *HUMMING, ("zh", "full", "md"), code_fingerprint(), epoch, "stale")
        now = report_epoch(store)
        assert now is not None
        assert now != epoch
        assert save_report(store, *HUMMING, ("zh", "full", "md"), code_fingerprint(), now, "fresh")
    assert cached_report(db, *HUMMING, "zh", "full", "md") == "fresh"
    with quick.reading(Path(db)) as connection:
        assert connection is not None
        assert quick.cached_report(connection, *HUMMING, "zh", "full", "md", "other code") is None


def test_refresh_and_a_database_url_take_the_normal_path(runner: CliRunner, db: str) -> None:
    first = _report(runner, db)
    assert _report(runner, db, "--refresh") == first
    assert cached_report(f"sqlite:///{db}", *HUMMING, "zh", "full", "md") is None
    assert run_ok(runner, "report", f"{HUMMING[0]}#{HUMMING[1]}", "--db", f"sqlite:///{db}") == first


def test_nothing_to_analyze_agrees_with_the_analysis(runner: CliRunner, db: str, seeds: Any) -> None:
    full = run_ok(runner, "analyze", "--all", "--db", db)
    assert nothing_to_analyze(db, None) == 2
    assert nothing_to_analyze(db, HUMMING[0]) == 2
    assert nothing_to_analyze(db, "someone/else") == 0
    quick_output = run_ok(runner, "analyze", "--db", db)
    assert quick_output == "analyzed 0 pull requests (2 already current)\n"
    assert full == "analyzed 2 pull requests (0 already current)\n"
    with Store.open(f"sqlite:///{db}") as store:
        store.upsert_prs([seeds.humming_pr().model_copy(update={"title": "Retitled"})])
    assert nothing_to_analyze(db, None) is None  # the record changed: its facts are stale
    run_ok(runner, "analyze", "--db", db)
    assert nothing_to_analyze(db, None) == 2
    _report(runner, db)  # a narrative is stored: the PR's search row is stale
    assert nothing_to_analyze(db, None) is None
    assert run_ok(runner, "analyze", "--db", db) == "analyzed 0 pull requests (2 already current)\n"
    assert nothing_to_analyze(db, None) == 2
