"""A clone that lacks some blobs (a partial clone offline, a damaged or size-limited copy):
`git log -p` stops at the first diff that needs one. The sync goes on with those files left
out, says so, and the PRs that changed them say which part was not read (issue 24)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.e2e.driver import Cli
from tests.helpers.gitrepo import GitRepoBuilder

REPO = "example-org/damaged"


def _prdigest(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRDIGEST_CONFIG": os.devnull, "HOME": str(home)}
    command = [str(Path(sys.executable).parent / "prdigest"), *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=60, check=False)


def _damaged(path: Path) -> tuple[GitRepoBuilder, str]:
    repo = GitRepoBuilder(path)
    repo.commit({"README.md": "# x\n"}, "Initial commit")
    repo.squash_pr(1, "Add data", {"data/big.json": '{"payload": 1}\n'})
    repo.squash_pr(2, "Add code and refresh the data", {"code.py": "X = 1\n", "data/big.json": '{"payload": 2}\n'})
    repo.squash_pr(3, "More code", {"code.py": "X = 2\n"})
    blob = repo.git("rev-parse", "HEAD~1:data/big.json").strip()  # #2's new version of the data
    (repo.path / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    return repo, blob


def test_files_whose_blobs_are_missing_are_left_out_and_told(tmp_path: Path) -> None:
    repo, _blob = _damaged(tmp_path / "repo")
    db = tmp_path / "db.sqlite"
    result = _prdigest(tmp_path / "home", "sync", "git", str(repo.path), "--repo", REPO, "--db", str(db))
    assert result.returncode == 0, result.stderr
    assert "synced 3 pull requests" in result.stdout
    assert "lacks the contents of 1 file" in result.stderr
    assert "1 pull request marked incomplete (#2)" in result.stderr

    run = Cli(tmp_path / "home")
    records = {n: json.loads(run("show", f"{REPO}#{n}", "--json", "--db", db).stdout) for n in (1, 2, 3)}
    two = records[2]
    assert [f["path"] for f in two["files"]] == ["code.py"]  # the rest of its diff is read
    assert two["changed_files_count"] == 2
    assert two["incomplete"] == ["missing-objects"]
    assert "incomplete" not in records[3]
    assert [f["path"] for f in records[3]["files"]] == ["code.py"]

    run("analyze", "--repo", REPO, "--db", db)
    facts = run.facts(f"{REPO}#2", db)
    assert facts["coverage"]["gaps"] == ["missing-objects"]
    assert facts["coverage"]["file_list"] == "partial"
    report = run("report", f"{REPO}#2", "--lang", "en", "--no-llm", "--db", db).stdout
    assert "The clone lacks the contents of some files this PR changed" in report
    assert "1 of its 2 changed files are read" in report
    zh = run("report", f"{REPO}#2", "--lang", "zh", "--no-llm", "--db", db).stdout
    assert "克隆中缺少该 PR 部分改动文件的内容" in zh


def test_a_pr_whose_every_blob_is_missing_has_one_gap_saying_why(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# x\n"}, "Initial commit")
    repo.squash_pr(1, "Refresh the data", {"data/big.json": '{"payload": 1}\n'})
    blob = repo.git("rev-parse", "HEAD:data/big.json").strip()
    (repo.path / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    db = tmp_path / "db.sqlite"
    result = _prdigest(tmp_path / "home", "sync", "git", str(repo.path), "--repo", REPO, "--db", str(db))
    assert result.returncode == 0, result.stderr
    run = Cli(tmp_path / "home")
    run("analyze", "--repo", REPO, "--db", db)
    coverage = run.facts(f"{REPO}#1", db)["coverage"]
    assert coverage["file_list"] == "unknown"
    # Not also 'file-list-missing': the missing objects are why no file is listed.
    assert coverage["gaps"] == ["missing-objects"]


def test_a_clone_missing_an_object_git_log_cannot_skip_is_a_clear_error(tmp_path: Path) -> None:
    # A missing tree cannot be left out of a diff: the sync stops, names it, exits 3, and
    # keeps every PR read whole before it (#3; #2's diff needs #1's tree, so it is not read).
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# x\n"}, "Initial commit")
    repo.squash_pr(1, "First", {"a.py": "A = 1\n"})
    repo.squash_pr(2, "Second", {"b.py": "B = 1\n"})
    repo.squash_pr(3, "Third", {"c.py": "C = 1\n"})
    tree = repo.git("rev-parse", "HEAD~2^{tree}").strip()  # #1's tree
    (repo.path / ".git" / "objects" / tree[:2] / tree[2:]).unlink()
    db = tmp_path / "db.sqlite"
    result = _prdigest(tmp_path / "home", "sync", "git", str(repo.path), "--repo", REPO, "--db", str(db))
    assert result.returncode == 3, result.stderr
    assert "git log failed" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    run = Cli(tmp_path / "home")
    three = json.loads(run("show", f"{REPO}#3", "--json", "--db", db).stdout)
    assert [f["path"] for f in three["files"]] == ["c.py"]
    missing = _prdigest(tmp_path / "home", "show", f"{REPO}#2", "--db", str(db))
    assert missing.returncode == 5
    assert "no pull request example-org/damaged#2" in missing.stderr
