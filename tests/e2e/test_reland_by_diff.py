"""A PR that adds again what a reverted PR added restores it, said or not (issue 25)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.driver import Cli
from tests.helpers.gitrepo import GitRepoBuilder

REPO = "example-org/reland"

RETRY = """import time


def retry(call, attempts=3, delay=0.5):
    for attempt in range(attempts):
        try:
            return call()
        except OSError:
            if attempt == attempts - 1:
                raise
            time.sleep(delay * (2 ** attempt))
"""


def test_a_silent_reland_is_found_by_its_diff(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# x\n", "client.py": "def get():\n    return 1\n"}, "Initial commit")
    repo.squash_pr(10, "Add a retry helper", {"retry.py": RETRY})
    revert = repo.git("rev-parse", "HEAD").strip()
    repo.squash_pr(11, 'Revert "Add a retry helper (#10)"', {"retry.py": None}, body=f"This reverts commit {revert}.")
    repo.squash_pr(12, "Log the client calls", {"client.py": "def get():\n    print('get')\n    return 1\n"})
    # Same lines again, one more: nothing in the message says it brings #10 back.
    repo.squash_pr(13, "Retry OSError in the client", {"retry.py": RETRY + "\n\nDEFAULT_ATTEMPTS = 3\n"})
    repo.squash_pr(14, "Tune the retry default", {"retry.py": RETRY + "\n\nDEFAULT_ATTEMPTS = 5\n"})
    db = tmp_path / "db.sqlite"
    run = Cli(tmp_path / "home")
    run("sync", "git", tmp_path / "repo", "--repo", REPO, "--db", db)
    run("analyze", "--repo", REPO, "--db", db)
    reland = run.facts(f"{REPO}#13", db)
    (ref,) = [r for r in reland["references"]["references"] if r["number"] == 10]
    assert (ref["relation"], ref["where"]) == ("restores", "git-diff")
    (diff,) = reland["lineage"]["restore_diffs"]
    assert diff["original"] == 10
    assert [line["text"] for line in diff["lines_new"]] == ["DEFAULT_ATTEMPTS = 3"]
    assert [e["number"] for e in run.facts(f"{REPO}#10", db)["lineage"]["restored_by"]] == [13]
    # The later tuning changes the re-landed file but re-adds nothing of #10.
    assert all(r["number"] != 10 for r in run.facts(f"{REPO}#14", db)["references"]["references"])
    en = run("report", f"{REPO}#13", "--db", db, "--lang", "en").stdout
    assert "This PR brings back the change of #10: it adds again 9 of the 9 lines #10 added (git diff)" in en
    zh = run("report", f"{REPO}#10", "--db", db, "--lang", "zh").stdout
    assert "#13 带回了本 PR 的改动" in zh
