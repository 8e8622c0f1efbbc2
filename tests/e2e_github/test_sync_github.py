"""The same story fetched by ``prdigest sync github`` from a fake GitHub (GraphQL + REST on
127.0.0.1): the discussion survives the GraphQL → bundle → record path, and the bundles a sync
saves (``--save-raw``) imported into a second database give byte-identical reports."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.e2e.driver import Cli, RunPrdigest, section
from tests.e2e_github.story import REPO, RESTORE, STORY, TOKEN, ref
from tests.sources.github.fake_github import FakeGitHub

VARIANTS = [(lang, length) for lang in ("zh", "en") for length in ("full", "brief")]


def _reports(run_cli: Cli, db: Path) -> dict[tuple[int, str, str], str]:
    return {
        (number, lang, length): run_cli(
            "report", ref(number), "--lang", lang, "--length", length, "--no-llm", "--db", db
        ).stdout
        for number in STORY
        for lang, length in VARIANTS
    }


def _sync(run_cli: Cli, fake: FakeGitHub, config: Path, db: Path, raw: Path) -> str:
    args = ("sync", "github", REPO, "--api-url", fake.url, "--config", config, "--save-raw", raw, "--db", db)
    return run_cli(*args).output


def test_sync_then_replayed_bundles_give_identical_reports(
    run_cli: Cli, fake_story: FakeGitHub, token_config: Path, tmp_path: Path
) -> None:
    synced_db, replayed_db, raw = tmp_path / "synced.db", tmp_path / "replayed.db", tmp_path / "raw"
    _sync(run_cli, fake_story, token_config, synced_db, raw)
    saved = sorted(p.name for p in raw.glob("*.json"))
    assert saved == [f"acme__widgets__{n}.json" for n in sorted(STORY)]
    for path in raw.glob("*.json"):
        assert TOKEN not in path.read_text(encoding="utf-8")
    assert fake_story.count("POST /graphql") >= 1  # the token made it a GraphQL sync

    run_cli("import", raw, "--db", replayed_db)
    for db in (synced_db, replayed_db):
        run_cli("analyze", "--db", db)

    synced, replayed = _reports(run_cli, synced_db), _reports(run_cli, replayed_db)
    assert synced.keys() == replayed.keys()
    for key, text in synced.items():
        assert text == replayed[key], key
    assert run_cli.facts(ref(RESTORE), synced_db) == run_cli.facts(ref(RESTORE), replayed_db)


def _discussion_essentials(facts: dict[str, Any]) -> list[tuple[str, str, str, bool, list[str]]]:
    return [
        (t["quotes"][0]["author"], t["kind"], t["outcome"], t["automated"], t["participants"])
        for t in facts["discussion"]["threads"]
    ]


def test_synced_discussion_matches_the_hand_written_bundle(
    run_cli: Cli, fake_story: FakeGitHub, token_config: Path, tmp_path: Path, bundle_db: Path
) -> None:
    db = tmp_path / "synced.db"
    _sync(run_cli, fake_story, token_config, db, tmp_path / "raw")
    run_cli("analyze", "--db", db)
    synced, hand = run_cli.facts(ref(RESTORE), db), run_cli.facts(ref(RESTORE), bundle_db)
    assert _discussion_essentials(synced) == _discussion_essentials(hand)
    assert _discussion_essentials(synced) == [
        ("gemini-code-assist", "correctness", "no-reply", True, []),
        ("hana-m", "design", "resolved", False, ["hana-m", "ravi-k", "tomas-l"]),
        ("kai-cupy", "other", "no-reply", False, ["kai-cupy"]),
    ]
    for key in ("bot_notice_count", "approvals", "review_comment_count", "conversation_comment_count"):
        assert synced["discussion"][key] == hand["discussion"][key], key
    # Whole discussion sections agree between the two ways in.
    for lang, heading in (("zh", "评论区精华"), ("en", "Discussion highlights")):
        args = ("report", ref(RESTORE), "--lang", lang, "--no-llm", "--db")
        assert section(run_cli(*args, db).stdout, heading) == section(run_cli(*args, bundle_db).stdout, heading)


def test_sync_and_import_as_separate_processes(
    run_prdigest: RunPrdigest, fake_story: FakeGitHub, token_config: Path, tmp_path: Path
) -> None:
    db, replay_db, raw = tmp_path / "proc.db", tmp_path / "proc-replay.db", tmp_path / "raw"
    synced = run_prdigest(
        "sync", "github", REPO, "--api-url", fake_story.url, "--config", token_config, "--save-raw", raw, "--db", db
    )
    assert synced.returncode == 0, synced.stderr
    assert TOKEN not in synced.stdout + synced.stderr
    imported = run_prdigest("import", raw, "--db", replay_db)
    assert imported.returncode == 0, imported.stderr
    assert f"imported {len(STORY)} bundles: {len(STORY)} new" in imported.stdout
    for target in (db, replay_db):
        analyzed = run_prdigest("analyze", "--db", target)
        assert analyzed.returncode == 0, analyzed.stderr
    reports = []
    for target in (db, replay_db):
        out = run_prdigest("report", ref(RESTORE), "--lang", "zh", "--no-llm", "--db", target)
        assert out.returncode == 0, out.stderr
        reports.append(out.stdout)
    assert reports[0] == reports[1]
    facts = json.loads(run_prdigest("facts", ref(RESTORE), "--json", "--db", db).stdout)
    assert [t["kind"] for t in facts["discussion"]["threads"]] == ["correctness", "design", "other"]
