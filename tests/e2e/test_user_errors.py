"""The mistakes a user makes, through the installed ``prdigest`` script: each ends with a
non-zero exit code and one line on stderr that names the problem, never a traceback."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.e2e.driver import RunPrdigest
from tests.e2e.repos import STORY_REPO


def _one_line_error(completed: subprocess.CompletedProcess[str], code: int | None = None) -> str:
    if code is None:
        assert completed.returncode != 0
    else:
        assert completed.returncode == code, (completed.returncode, completed.stderr)
    assert "Traceback" not in completed.stderr
    lines = completed.stderr.strip().splitlines()
    assert len(lines) == 1, completed.stderr
    assert completed.stdout == ""
    return lines[0]


def test_facts_of_an_unknown_pr(run_prdigest: RunPrdigest, story_db: Path) -> None:
    line = _one_line_error(run_prdigest("facts", "org/x#999", "--db", story_db), 5)
    assert "org/x#999" in line


def test_report_of_an_unknown_repository(run_prdigest: RunPrdigest, story_db: Path) -> None:
    line = _one_line_error(run_prdigest("report", "nobody/nothing#1", "--lang", "en", "--db", story_db), 5)
    assert "nobody/nothing#1" in line
    # A known repository but an unknown number is the same kind of mistake.
    assert "#404" in _one_line_error(run_prdigest("report", f"{STORY_REPO}#404", "--db", story_db), 5)


def test_feed_and_publish_of_an_unknown_repository(run_prdigest: RunPrdigest, story_db: Path, tmp_path: Path) -> None:
    assert "nobody/nothing" in _one_line_error(run_prdigest("feed", "nobody/nothing", "--db", story_db), 5)
    out = tmp_path / "site"
    line = _one_line_error(run_prdigest("publish", "nobody/nothing", "--out", out, "--db", story_db), 5)
    assert "nobody/nothing" in line
    assert not out.exists()


def test_analyze_with_a_broken_rules_file(run_prdigest: RunPrdigest, story_db: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text('[[rule]]\npattern = "src/**"\nmodule = \n', encoding="utf-8")
    line = _one_line_error(run_prdigest("analyze", "--rules", broken, "--db", story_db), 2)
    assert str(broken) in line
    wrong_shape = tmp_path / "wrong.toml"
    wrong_shape.write_text('[[rule]]\nmodule = "no pattern"\n', encoding="utf-8")
    line = _one_line_error(run_prdigest("analyze", "--rules", wrong_shape, "--db", story_db), 2)
    assert str(wrong_shape) in line
    assert "pattern" in line


def test_sync_git_of_a_folder_that_is_not_a_clone(run_prdigest: RunPrdigest, tmp_path: Path) -> None:
    folder = tmp_path / "just-files"
    folder.mkdir()
    (folder / "notes.txt").write_text("not a repository\n", encoding="utf-8")
    db = tmp_path / "empty.db"
    line = _one_line_error(run_prdigest("sync", "git", folder, "--db", db))
    assert str(folder) in line
    assert "git" in line


def test_bad_pr_reference(run_prdigest: RunPrdigest, story_db: Path) -> None:
    line = _one_line_error(run_prdigest("facts", "not-a-ref", "--db", story_db), 2)
    assert "not-a-ref" in line
