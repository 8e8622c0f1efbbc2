"""Every failure ends with a non-zero exit code and one line on stderr."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from tests.helpers.gitrepo import GitRepoBuilder
from tests.sources.git.conftest import RunCli


def _one_line_error(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


def test_not_a_git_repository(tmp_path: Path, run_cli: RunCli) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    result = run_cli("sync", "git", plain, "--db", tmp_path / "p.db")
    assert result.returncode == 3
    assert "is not a git repository" in _one_line_error(result.stderr)


def test_missing_path(tmp_path: Path, run_cli: RunCli) -> None:
    result = run_cli("sync", "git", tmp_path / "nope", "--db", tmp_path / "p.db")
    assert result.returncode == 3
    assert "no such file or directory" in _one_line_error(result.stderr)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any directory")
def test_unreadable_path(tmp_path: Path, run_cli: RunCli) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        result = run_cli("sync", "git", locked, "--db", tmp_path / "p.db")
    finally:
        locked.chmod(0o755)
    assert result.returncode == 3
    assert "permission denied" in _one_line_error(result.stderr)


def test_a_file_is_not_a_repository(tmp_path: Path, run_cli: RunCli) -> None:
    target = tmp_path / "file.txt"
    target.write_text("x")
    result = run_cli("sync", "git", target, "--db", tmp_path / "p.db")
    assert result.returncode == 3
    assert "not a directory" in _one_line_error(result.stderr)


def test_history_without_pull_requests(tmp_path: Path, run_cli: RunCli) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.set_origin("https://github.com/o/n.git")
    repo.commit({"a": "a\n"}, "Just a commit")
    result = run_cli("sync", "git", repo.path, "--db", tmp_path / "p.db")
    assert result.returncode == 3
    line = _one_line_error(result.stderr)
    for pattern in ("squash commits ending in (#N)", "Merge pull request #N from", "refs/pull/N/head", "--since"):
        assert pattern in line


def test_repository_without_commits(tmp_path: Path, run_cli: RunCli) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.set_origin("https://github.com/o/n.git")
    result = run_cli("sync", "git", repo.path, "--db", tmp_path / "p.db")
    assert result.returncode == 3
    assert "no commits yet" in _one_line_error(result.stderr)


def test_no_origin_needs_repo_option(tmp_path: Path, run_cli: RunCli) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.squash_pr(1, "One", {"a": "a\n"})
    result = run_cli("sync", "git", repo.path, "--db", tmp_path / "p.db")
    assert result.returncode == 2
    assert "--repo OWNER/NAME" in _one_line_error(result.stderr)
    bad = run_cli("sync", "git", repo.path, "--db", tmp_path / "p.db", "--repo", "not-a-name")
    assert bad.returncode == 2
    assert "OWNER/NAME" in _one_line_error(bad.stderr)


def test_bad_since_and_branch(tmp_path: Path, run_cli: RunCli) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.set_origin("https://github.com/o/n.git")
    repo.squash_pr(1, "One", {"a": "a\n"})
    since = run_cli("sync", "git", repo.path, "--db", tmp_path / "p.db", "--since", "yesterday")
    assert since.returncode == 2
    assert "--since" in _one_line_error(since.stderr)
    branch = run_cli("sync", "git", repo.path, "--db", tmp_path / "p.db", "--branch", "nope")
    assert branch.returncode == 2
    assert "--branch" in _one_line_error(branch.stderr)


def test_database_from_a_newer_schema(tmp_path: Path, run_cli: RunCli) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.set_origin("https://github.com/o/n.git")
    repo.squash_pr(1, "One", {"a": "a\n"})
    db = tmp_path / "p.db"
    run_cli("sync", "git", repo.path, "--db", db, check=True)
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
    result = run_cli("sync", "git", repo.path, "--db", db)
    assert result.returncode == 4
    assert "9999" in _one_line_error(result.stderr)
