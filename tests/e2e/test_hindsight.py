"""Hindsight: a PR later reverted or repaired says how soon, in the feed, and
benchmarks/hindsight.py counts, per verdict level, the PRs that later needed a revert or a
fix (issue 25)."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.e2e.driver import Cli, clean_env
from tests.helpers.gitrepo import GitRepoBuilder

REPO = "example-org/hindsight"
HINDSIGHT = Path(__file__).parents[2] / "benchmarks" / "hindsight.py"
DAY0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)

PAGER = '''def pages(total, size):
    """How many pages hold `total` items."""
    if size <= 0:
        raise ValueError("size must be positive")
    return total // size
'''
CACHE = """import functools


def cached(call):
    store = {}

    @functools.wraps(call)
    def wrapper(key):
        if key not in store:
            store[key] = call(key)
        return store[key]

    return wrapper
"""


def _history(path: Path) -> None:
    repo = GitRepoBuilder(path)
    repo.commit({"README.md": "# pager\n"}, "Initial commit", date=DAY0)
    repo.squash_pr(1, "Add the pager", {"pager.py": PAGER}, date=DAY0 + timedelta(hours=1))
    repo.squash_pr(2, "Add a cache decorator", {"cache.py": CACHE}, date=DAY0 + timedelta(days=1))
    added = repo.git("rev-parse", "HEAD").strip()
    repo.squash_pr(
        3,
        'Revert "Add a cache decorator (#2)"',
        {"cache.py": None},
        body=f"This reverts commit {added}.",
        date=DAY0 + timedelta(days=4),
    )
    repo.squash_pr(4, "Document the pager", {"docs/pager.md": "# Pages\n"}, date=DAY0 + timedelta(days=6))
    repo.squash_pr(
        5,
        "Fix the page count when the last page is partial",
        {
            "pager.py": PAGER.replace("return total // size", "return -(-total // size)").replace("<= 0", "< 1"),
            "tests/test_pager.py": "from pager import pages\n\n\ndef test_partial():\n    assert pages(5, 2) == 3\n",
        },
        date=DAY0 + timedelta(days=13, hours=1),
    )
    repo.squash_pr(6, "Document the cache removal", {"docs/cache.md": "# No cache\n"}, date=DAY0 + timedelta(days=60))


def _analyzed(tmp_path: Path) -> tuple[Cli, Path]:
    _history(tmp_path / "repo")
    db = tmp_path / "db.sqlite"
    run = Cli(tmp_path / "home")
    run("sync", "git", tmp_path / "repo", "--repo", REPO, "--db", db)
    run("analyze", "--repo", REPO, "--db", db)
    return run, db


def test_the_feed_says_how_soon_a_pr_was_reverted_and_repaired(tmp_path: Path) -> None:
    run, db = _analyzed(tmp_path)
    (revert,) = run.facts(f"{REPO}#2", db)["lineage"]["reverted_by"]
    assert (revert["number"], revert["days_after"]) == (3, 3)
    (fix,) = run.facts(f"{REPO}#1", db)["lineage"]["fixed_by"]
    assert (fix["number"], fix["days_between"]) == (5, 13)
    en = run("feed", REPO, "--db", db, "--lang", "en").stdout
    assert "Reverted 3 days later by #3 (2024-03-05)." in en
    assert "13 days later, #5 fixed code this PR wrote (git blame)." in en
    zh = run("feed", REPO, "--db", db, "--lang", "zh").stdout
    assert "3 天后已被 #3 回退（2024-03-05）。" in zh
    assert "13 天后 #5 修复了本 PR 写入的代码（git blame）。" in zh
    # The full report carries the same hindsight in its recommendation.
    assert "Reverted 3 days later by #3" in run("report", f"{REPO}#2", "--db", db, "--lang", "en").stdout


def _table(output: str) -> dict[str, list[int]]:
    rows = {}
    for line in output.splitlines():
        cells = line.split()
        if cells and cells[0] in ("read-in-depth", "quick-read", "skip"):
            rows[cells[0]] = [int(cell) for cell in cells[1:5]]
    return rows


def _hindsight(tmp_path: Path, db: Path, window: int) -> tuple[str, dict[str, list[int]]]:
    env = {**os.environ, **{k: v for k, v in clean_env(tmp_path / "home").items() if v is not None}}
    for unset in [k for k, v in clean_env(tmp_path / "home").items() if v is None]:
        env.pop(unset, None)
    done = subprocess.run(
        [sys.executable, str(HINDSIGHT), f"{tmp_path / 'repo'}={REPO}", "--db", str(db), "--window", str(window)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return done.stdout, _table(done.stdout)


def test_the_hindsight_benchmark_counts_reverts_and_fixes_per_level(tmp_path: Path) -> None:
    run, db = _analyzed(tmp_path)
    levels = {n: run.facts(f"{REPO}#{n}", db)["verdict"]["level"] for n in (1, 2)}
    out, rows = _hindsight(tmp_path, db, window=30)
    # #6 merged within 30 days of the newest merge (it is the newest): too recent to count.
    assert "5 PRs merged at least 30 days before the newest merge" in out
    assert "(1 more recent ones left out" in out
    assert sum(row[0] for row in rows.values()) == 5
    assert sum(row[1] for row in rows.values()) == 1  # #2, reverted
    assert sum(row[2] for row in rows.values()) == 1  # #1, fixed by #5
    assert rows[levels[2]][1] >= 1
    assert rows[levels[1]][2] >= 1
    # A window shorter than the three days to the revert counts neither the revert nor the fix.
    out, rows = _hindsight(tmp_path, db, window=2)
    assert sum(row[3] for row in rows.values()) == 0
