"""A clone that lacks some objects (a partial clone offline, a damaged copy): the sync says
which object and what to do, exits 3, and keeps the pull requests it read before it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.e2e.driver import Cli
from tests.helpers.gitrepo import GitRepoBuilder

REPO = "example-org/damaged"


def test_a_missing_blob_is_a_clear_error_and_keeps_what_was_read(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# x\n"}, "Initial commit")
    repo.squash_pr(1, "Add data", {"data.bin": "big payload\n"})
    repo.squash_pr(2, "Add code", {"code.py": "X = 1\n"})
    repo.squash_pr(3, "More code", {"code.py": "X = 2\n"})
    blob = repo.git("rev-parse", "HEAD~2:data.bin").strip()
    (repo.path / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    db = tmp_path / "db.sqlite"
    run = Cli(tmp_path / "home")
    env = {**os.environ, "PRDIGEST_CONFIG": os.devnull, "HOME": str(tmp_path / "home")}
    prdigest = Path(sys.executable).parent / "prdigest"
    command = [str(prdigest), "sync", "git", str(repo.path), "--repo", REPO, "--db", str(db)]
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60, check=False)
    assert result.returncode == 3, result.stderr
    assert f"unable to read {blob}" in result.stderr
    assert "the clone lacks that object" in result.stderr
    assert "`git fsck`" in result.stderr
    kept = {json.loads(run("show", f"{REPO}#{n}", "--json", "--db", db).stdout)["number"] for n in (2, 3)}
    assert kept == {2, 3}
