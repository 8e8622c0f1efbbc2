"""A shallow clone: the sync warns, and the PR at the cut is marked incomplete instead of
being recorded as adding the whole tree."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.helpers.gitrepo import GitRepoBuilder
from tests.sources.git.conftest import RunCli, load_pr

from prdigest.models.pullrequest import IncompleteReason

REPO = "example-org/example-project"


def _history(path: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(path)
    repo.commit({"README.md": "# demo\n", "src/app.py": "x = 1\n", "src/big.py": "y = 1\n" * 50}, "Initial commit")
    repo.squash_pr(1, "First change", {"src/app.py": "x = 2\n"})
    repo.squash_pr(2, "Second change", {"src/app.py": "x = 3\n"})
    repo.merge_pr(3, "alice/feature", "Add a feature", {"src/feature.py": "z = 1\n"})
    repo.squash_pr(4, "Fourth change", {"src/app.py": "x = 4\n"})
    return repo


def _clone(source: Path, target: Path, depth: int) -> Path:
    subprocess.run(
        ["git", "clone", "--quiet", f"--depth={depth}", f"file://{source}", str(target)],
        check=True,
        capture_output=True,
    )
    subprocess.run(["git", "-C", str(target), "remote", "set-url", "origin", f"git@github.com:{REPO}.git"], check=True)
    return target


def test_a_shallow_clone_warns_and_marks_the_boundary_pr(tmp_path: Path, run_cli: RunCli) -> None:
    source = _history(tmp_path / "source")
    clone = _clone(source.path, tmp_path / "clone", depth=2)  # the merge of #3 and #4's commit
    db = tmp_path / "p.db"
    completed = run_cli("sync", "git", clone, "--db", db, check=True)
    warning = [line for line in completed.stderr.splitlines() if line.startswith("warning: ")]
    assert len(warning) == 1, completed.stderr
    assert "shallow clone" in warning[0]
    assert "#3 marked incomplete" in warning[0]
    assert "git fetch --unshallow" in warning[0]
    boundary = load_pr(db, REPO, 3)
    assert boundary.incomplete == [IncompleteReason.SHALLOW_BOUNDARY.value]
    # Not "adds README.md, src/app.py, src/big.py, ...": the diff is unknown.
    assert boundary.files == []
    assert boundary.files_truncated
    assert (boundary.additions, boundary.deletions, boundary.changed_files_count) == (0, 0, None)
    newest = load_pr(db, REPO, 4)
    assert newest.incomplete == []
    assert [f.path for f in newest.files] == ["src/app.py"]
    assert '"incomplete"' not in newest.model_dump_json()  # complete records keep their stored form

    # Deepened, the clone is read again and the PR is complete.
    deepen = ["git", "-C", str(clone), "fetch", "--quiet", "--unshallow", f"file://{source.path}", "main"]
    subprocess.run(deepen, check=True, capture_output=True)
    again = run_cli("sync", "git", clone, "--db", db, check=True)
    assert "shallow" not in again.stderr
    healed = load_pr(db, REPO, 3)
    assert healed.incomplete == []
    assert [f.path for f in healed.files] == ["src/feature.py"]


def test_a_full_clone_says_nothing_about_shallowness(tmp_path: Path, run_cli: RunCli) -> None:
    source = _history(tmp_path / "source")
    completed = run_cli("sync", "git", source.path, "--repo", REPO, "--db", tmp_path / "p.db", check=True)
    assert "shallow" not in completed.stderr


def test_a_subdirectory_or_a_bare_copy_of_a_shallow_clone_reads_the_same(tmp_path: Path, run_cli: RunCli) -> None:
    """The clone's set-up is asked from the path given (its top found apart): a subdirectory
    and a bare copy find the same name, branch, shallow cut and records as the top."""
    source = _history(tmp_path / "source")
    clone = _clone(source.path, tmp_path / "clone", depth=2)
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "--quiet", "--bare", str(clone), str(bare)], check=True, capture_output=True)
    subprocess.run(["git", "-C", str(bare), "remote", "set-url", "origin", f"git@github.com:{REPO}.git"], check=True)
    read = {}
    for name, path in (("top", clone), ("subdirectory", clone / "src"), ("bare", bare)):
        db = tmp_path / f"{name}.db"
        completed = run_cli("sync", "git", path, "--db", db, check=True)
        assert "#3 marked incomplete" in completed.stderr, (name, completed.stderr)
        read[name] = [load_pr(db, REPO, n).model_dump(exclude={"files"}) for n in (3, 4)]
        assert read[name][0]["incomplete"] == [IncompleteReason.SHALLOW_BOUNDARY.value]
    assert read["subdirectory"] == read["top"]
    assert [pr["base_ref"] for pr in read["bare"]] == [pr["base_ref"] for pr in read["top"]]
