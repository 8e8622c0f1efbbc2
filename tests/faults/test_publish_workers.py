"""``publish --jobs 2``: the site is byte for byte the one ``--jobs 1`` writes, a PR that
cannot be written is reported while every other is written (exit 7), publishing again
rewrites nothing, and no worker process outlives the run (done or Ctrl-C)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from tests.faults.conftest import clean_env, command, run
from tests.faults.processes import alive, gone_within, start_in_own_group
from tests.faults.processes import workers as workers_of

from prdigest.demo.synthetic import write_synthetic_history
from prdigest.pipeline.publish_stamps import MANIFEST

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the process table from /proc")

REPO = "example-org/synthetic"
PRS = 120  # enough for two workers (`worker_pool.MIN_PARALLEL`)
NARRATION_EXIT = 7
MARK = "untouched since the first publish\n"


@pytest.fixture(scope="module")
def analyzed_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("publish-workers")
    history = write_synthetic_history(base / "repo", prs=PRS, files=30, lines=40)
    db = base / "prdigest.db"
    assert run("sync", "git", str(history), "--db", str(db)).code == 0
    assert run("analyze", "--jobs", "1", "--db", str(db)).code == 0
    return db


def _copy(db: Path, target: Path) -> Path:
    target.write_bytes(db.read_bytes())
    return target


def _site(out: Path) -> dict[str, bytes]:
    # The stamps name stored narrative ids, which depend on which process saved first.
    return {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file() and p.name != MANIFEST}


def _publish_watching_workers(db: Path, out: Path, *extra: str) -> tuple[subprocess.CompletedProcess[str], int]:
    """``prdigest publish --jobs 2``, counting the worker processes seen while it runs."""
    process = subprocess.Popen(
        command("publish", REPO, "--out", str(out), "--no-llm", "--jobs", "2", "--db", str(db), *extra),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=clean_env(),
    )
    seen: set[int] = set()
    while process.poll() is None:
        seen |= workers_of(process.pid)
        time.sleep(0.02)
    out_text, err_text = process.communicate()
    assert gone_within(seen, 5), "a worker outlived the run"
    return subprocess.CompletedProcess(process.args, process.returncode, out_text, err_text), len(seen)


def _numbers(db: Path) -> list[int]:
    """The PRs in the order publishing deals them out."""
    listed = run("list", "--repo", REPO, "--db", str(db), "--json", "--limit", str(PRS))
    return [int(json.loads(line)["number"]) for line in listed.out.splitlines() if line.strip()]


@pytest.mark.slow
def test_two_jobs_write_the_site_one_job_writes(analyzed_db: Path, tmp_path: Path) -> None:
    one = tmp_path / "one"
    result = run(
        "publish",
        REPO,
        "--out",
        str(one),
        "--no-llm",
        "--jobs",
        "1",
        "--db",
        str(_copy(analyzed_db, tmp_path / "1.db")),
    )
    assert result.code == 0, result.err
    two = tmp_path / "two"
    done, workers = _publish_watching_workers(_copy(analyzed_db, tmp_path / "2.db"), two)
    assert done.returncode == 0, done.stderr
    assert workers == 1  # with this process, two makers of pages
    assert done.stdout == result.out.replace(str(one), str(two))
    assert _site(two) == _site(one)
    assert len(list((two / "reports").iterdir())) == PRS * 2 * 2 * 3


@pytest.mark.slow
def test_a_failing_pr_is_reported_and_the_others_written(analyzed_db: Path, tmp_path: Path) -> None:
    db = _copy(analyzed_db, tmp_path / "broken.db")
    order = _numbers(db)
    broken = sorted({order[0], order[8], order[60]})  # in pages both processes take
    with sqlite3.connect(db) as connection:
        for number in broken:
            (record,) = connection.execute("SELECT record FROM pull_requests WHERE number = ?", (number,)).fetchone()
            damaged = json.loads(record)
            damaged["files"] = "not a list of files"
            connection.execute("UPDATE pull_requests SET record = ? WHERE number = ?", (json.dumps(damaged), number))
    out = tmp_path / "site"
    done, _workers_seen = _publish_watching_workers(db, out)
    assert done.returncode == NARRATION_EXIT, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"error: {len(broken)} of {PRS} pull requests could not be written (#"), last
    written = {int(path.name.split(".")[0]) for path in (out / "reports").iterdir()}
    assert written == set(order) - set(broken)
    feed = json.loads((out / "feed.en.json").read_text())
    assert sorted(item["number"] for item in feed["items"] if item["verdict"] is None) == broken
    index = (out / "index.md").read_text()
    assert index.count("Could not be written: its stored data does not validate") == len(broken)


@pytest.mark.slow
def test_publishing_again_with_jobs_rewrites_nothing(analyzed_db: Path, tmp_path: Path) -> None:
    db = _copy(analyzed_db, tmp_path / "again.db")
    out = tmp_path / "site"
    first, _ = _publish_watching_workers(db, out)
    assert first.returncode == 0, first.stderr
    before = _site(out)
    for path in (out / "reports").iterdir():
        path.write_text(MARK, encoding="utf-8")
    again = run("publish", REPO, "--out", str(out), "--no-llm", "--jobs", "2", "--db", str(db))
    assert again.code == 0, again.err
    assert all(path.read_text(encoding="utf-8") == MARK for path in (out / "reports").iterdir())
    assert {name: text for name, text in _site(out).items() if not name.startswith("reports/")} == {
        name: text for name, text in before.items() if not name.startswith("reports/")
    }


@pytest.mark.slow
def test_ctrl_c_ends_the_workers(analyzed_db: Path, tmp_path: Path) -> None:
    db = _copy(analyzed_db, tmp_path / "interrupted.db")
    process = start_in_own_group(
        "publish", REPO, "--out", str(tmp_path / "site"), "--no-llm", "--jobs", "2", "--db", str(db)
    )
    deadline = time.monotonic() + 120
    workers: set[int] = set()
    while time.monotonic() < deadline and process.poll() is None and not workers:
        workers = workers_of(process.pid)
        time.sleep(0.02)
    if not workers:
        process.kill()
        process.communicate()
        pytest.fail(f"no worker showed (exit {process.poll()})")
    os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole group
    _out, err = process.communicate(timeout=60)
    try:
        assert process.returncode == 130, err
        assert "Traceback" not in err, err
        assert gone_within(workers, 10)
    finally:
        for pid in workers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
