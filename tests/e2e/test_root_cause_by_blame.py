"""A fix names the earlier PR that wrote the lines it changes (git blame of its parent), and
that PR says which later PR fixed it, in both languages (issue 25)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.e2e.driver import Cli
from tests.helpers.gitrepo import GitRepoBuilder

REPO = "example-org/blame"

PAGER_V1 = '''def pages(total, size):
    """How many pages hold `total` items."""
    if size <= 0:
        raise ValueError("size must be positive")
    return total // size


def label(count):
    return f"{count} items"
'''
PAGER_V2 = PAGER_V1.replace(
    "    return total // size\n", "    return total // size + (1 if total % size else 0)\n"
).replace("if size <= 0:", "if size < 1:")
NOXFILE_V1 = "LINT = ['flake8', 'black', 'isort']\nPYTHONS = ['3.9', '3.10']\nREUSE = False\n"


def _history(path: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(path)
    repo.commit({"README.md": "# pager\n"}, "Initial commit")
    repo.squash_pr(1, "Add the pager", {"pager.py": PAGER_V1})
    repo.squash_pr(2, "Add lint sessions", {"noxfile.py": NOXFILE_V1})
    repo.squash_pr(3, "Document the pager", {"docs/pager.md": "# Pages\n"})
    # The fix changes a line #1 wrote; it also tidies the lint list (#2's lines, more of them).
    repo.squash_pr(
        4,
        "Fix the page count when the last page is partial",
        {
            "pager.py": PAGER_V2,
            "noxfile.py": "LINT = ['ruff']\nPYTHONS = ['3.11']\nREUSE = True\n",
            "tests/test_pager.py": "from pager import pages\n\n\ndef test_partial():\n    assert pages(5, 2) == 3\n",
        },
    )
    return repo


def test_a_fix_names_the_pr_that_wrote_the_lines_it_changes(tmp_path: Path) -> None:
    _history(tmp_path / "repo")
    db = tmp_path / "db.sqlite"
    run = Cli(tmp_path / "home")
    run("sync", "git", tmp_path / "repo", "--repo", REPO, "--db", db)
    analyzed = run("analyze", "--repo", REPO, "--db", db)
    assert "blamed the changed lines of 1 fix" in analyzed.stdout
    fix = run.facts(f"{REPO}#4", db)
    # Blamed in the parent: pager.py's two lines from #1, noxfile.py's three lines from #2.
    assert fix["origins"]["lines_by_path"] == {"noxfile.py": 3, "pager.py": 2}
    (cause,) = fix["lineage"]["root_cause_in"]
    # Only the central file decides: #2 wrote more of the changed lines, but in a lint list. The
    # count said is of all five lines the fix changes, not only the central file's two.
    assert (cause["number"], cause["lines"], cause["of_lines"], cause["paths"]) == (1, 2, 5, ["pager.py"])
    assert any(r["number"] == 1 and r["relation"] == "root-cause-in" for r in fix["references"]["references"])
    origin = run.facts(f"{REPO}#1", db)
    assert [f["number"] for f in origin["lineage"]["fixed_by"]] == [4]
    for lang, fixed_words, cause_words in (
        ("en", "The root cause lies in #1: it wrote 2 of the 5 lines", "#4 fixes code this PR wrote"),
        ("zh", "问题根因在 #1：本修复改动的 5 行中有 2 行由它写入", "#4 修复了本 PR 写入的代码"),
    ):
        assert fixed_words in run("report", f"{REPO}#4", "--db", db, "--lang", lang).stdout
        assert cause_words in run("report", f"{REPO}#1", "--db", db, "--lang", lang).stdout
    # Hindsight in the feed: the fix says whose code it fixes, the origin that it was fixed.
    feed = run("feed", REPO, "--db", db, "--lang", "en").stdout
    assert "It fixes code that #1 wrote (git blame)." in feed
    assert "Within a day, #4 fixed code this PR wrote (git blame)." in feed  # three commits, an hour apart
    assert "一天之内 #4 修复了本 PR 写入的代码（git blame）。" in run("feed", REPO, "--db", db, "--lang", "zh").stdout


def test_lines_spread_over_several_prs_name_no_root_cause(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# x\n"}, "Initial commit")
    repo.squash_pr(1, "Add a", {"calc.py": "A = 1\nA2 = 1\nB = 1\nB2 = 1\nC = 1\nC2 = 1\n"})
    repo.squash_pr(2, "Tune b", {"calc.py": "A = 1\nA2 = 1\nB = 2\nB2 = 2\nC = 1\nC2 = 1\n"})
    repo.squash_pr(3, "Tune c", {"calc.py": "A = 1\nA2 = 1\nB = 2\nB2 = 2\nC = 3\nC2 = 3\n"})
    repo.squash_pr(4, "Fix the constants", {"calc.py": "A = 4\nA2 = 4\nB = 5\nB2 = 5\nC = 6\nC2 = 6\n"})
    db = tmp_path / "db.sqlite"
    run = Cli(tmp_path / "home")
    run("sync", "git", tmp_path / "repo", "--repo", REPO, "--db", db)
    run("analyze", "--repo", REPO, "--db", db)
    fix = run.facts(f"{REPO}#4", db)
    # Two lines each from #1, #2 and #3: each PR wrote a third, none the share a cause needs.
    assert fix["origins"]["lines"] == 6
    assert sorted(o["number"] for o in fix["origins"]["origins"]) == [1, 2, 3]
    assert "root_cause_in" not in fix.get("lineage", {})
    assert "根因" not in run("report", f"{REPO}#4", "--db", db, "--lang", "zh").stdout


def test_without_the_clone_nothing_is_blamed_and_nothing_is_claimed(tmp_path: Path) -> None:
    _history(tmp_path / "repo")
    db = tmp_path / "db.sqlite"
    run = Cli(tmp_path / "home")
    run("sync", "git", tmp_path / "repo", "--repo", REPO, "--db", db)
    shutil.rmtree(tmp_path / "repo")  # moved or deleted after the sync
    analyzed = run("analyze", "--repo", REPO, "--db", db)
    assert "blamed" not in analyzed.stdout
    fix = run.facts(f"{REPO}#4", db)
    assert "origins" not in fix
    assert "root_cause_in" not in fix.get("lineage", {})
