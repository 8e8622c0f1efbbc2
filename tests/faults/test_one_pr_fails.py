"""One stored PR that cannot be written never stops a feed or a publish: its item says it could
not be written and why, every other PR is written, the command ends with one summary line and
exit 7 (the narrator's code: a report could not be produced)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from tests.faults.conftest import assert_one_line_error, run

REPO = "example-org/synthetic"
BROKEN = 5
NARRATION_EXIT = 7


@pytest.fixture
def broken_db(tmp_path: Path, small_history: Path) -> Path:
    """A synced database where PR #5's stored record no longer validates (a record written by
    another version, or damaged): loading it raises inside the pipeline, for real."""
    db = tmp_path / "prdigest.db"
    assert run("sync", "git", str(small_history), "--no-contents", "--db", str(db)).code == 0
    with sqlite3.connect(db) as connection:
        (record,) = connection.execute("SELECT record FROM pull_requests WHERE number = ?", (BROKEN,)).fetchone()
        damaged = json.loads(record)
        damaged["files"] = "not a list of files"
        connection.execute("UPDATE pull_requests SET record = ? WHERE number = ?", (json.dumps(damaged), BROKEN))
    return db


def test_feed_writes_every_other_item(broken_db: Path) -> None:
    result = run("feed", REPO, "--lang", "en", "--format", "json", "--no-llm", "--db", str(broken_db))
    line = assert_one_line_error(result, NARRATION_EXIT)
    assert line.startswith(f"error: 1 of 24 pull requests could not be written (#{BROKEN}: ")
    feed = json.loads(result.out)
    assert len(feed["items"]) == 24
    broken = next(item for item in feed["items"] if item["number"] == BROKEN)
    assert broken["verdict"] is None
    assert broken["paragraph"].startswith("Could not be written: its stored data does not validate as PullRequest")
    others = [item for item in feed["items"] if item["number"] != BROKEN]
    assert all(item["verdict"] is not None for item in others)


def test_publish_writes_every_other_report(broken_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    result = run("publish", REPO, "--out", str(out), "--lang", "en", "--no-llm", "--db", str(broken_db))
    line = assert_one_line_error(result, NARRATION_EXIT)
    assert f"1 of 24 pull requests could not be written (#{BROKEN}: " in line
    assert str(out) in line
    reports = {path.name.split(".")[0] for path in (out / "reports").iterdir()}
    assert reports == {str(n) for n in range(1, 25)} - {str(BROKEN)}  # none half-written for #5
    index = (out / "index.md").read_text()
    assert f"#{BROKEN} " in index
    assert "Could not be written: its stored data does not validate" in index
    feed = json.loads((out / "feed.en.json").read_text())
    assert [item["number"] for item in feed["items"] if item["verdict"] is None] == [BROKEN]
