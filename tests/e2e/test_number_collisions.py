"""A history whose PR numbers repeat on the main line (issue 24), through every command.

The repository is an older project's history (its own PRs #1..#6, years older) with a new
project built on top of it, numbered from #1 again; #3 of the new project landed in two
commits of one title (a squash plus a follow-up that changed files too). Nothing may fail,
the new project's commit must be each record, and only #3 is told as incomplete.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.e2e.driver import Cli
from tests.helpers.gitrepo import GitRepoBuilder

REPO = "example-org/renumbered"
OLD_START = datetime(2015, 3, 1, 9, 0, tzinfo=UTC)
NEW_START = datetime(2024, 9, 2, 9, 0, tzinfo=UTC)


def _history(path: Path) -> tuple[GitRepoBuilder, dict[int, str], str, str]:
    """(repo, new project's SHA per number, the #3 follow-up's SHA, the old #3's SHA)."""
    repo = GitRepoBuilder(path)
    repo.commit({"README.md": "# old project\n"}, "Initial commit", date=OLD_START)
    old: dict[int, str] = {}
    for n in range(1, 7):
        old[n] = repo.squash_pr(
            n,
            f"Old feature {n}",
            {f"legacy/mod{n}.py": f"def legacy_{n}():\n    return {n}\n"},
            date=OLD_START + timedelta(days=n),
        )
    repo.commit({"NOTICE": "continued as the new project\n"}, "Start the new project", date=NEW_START)
    new: dict[int, str] = {}
    follow_up = ""
    for n in range(1, 9):
        when = NEW_START + timedelta(days=n)
        new[n] = repo.squash_pr(
            n,
            f"New feature {n}",
            {f"app/feature{n}.py": f"def feature_{n}(value: int) -> int:\n    return value + {n}\n"},
            body=f"Adds feature {n} to the app.",
            date=when,
        )
        if n == 3:  # the same PR's follow-up commit, same title and number, with a diff
            follow_up = repo.squash_pr(
                3, "New feature 3", {"app/feature3_extra.py": "EXTRA = 3\n"}, date=when + timedelta(hours=2)
            )
    return repo, new, follow_up, old[3]


def test_a_renumbered_history_goes_through_every_command(tmp_path: Path, run_cli: Cli) -> None:
    repo, new, follow_up, old_three = _history(tmp_path / "repo")
    db = tmp_path / "db.sqlite"
    synced = run_cli("sync", "git", repo.path, "--repo", REPO, "--db", db)
    assert "another pull request carrying the same number" in synced.output
    assert "one PR landed in several commits of one title" in synced.output
    run_cli("analyze", "--repo", REPO, "--db", db)  # exit 0: no PR failed

    for number in (1, 2, 4, 5, 6, 7, 8):
        record = json.loads(run_cli("show", f"{REPO}#{number}", "--json", "--db", db).stdout)
        assert record["merge_commit_sha"] == new[number]  # the new project's PR, not the old one's
        assert record.get("incomplete", []) == []  # another PR sharing the number is no gap
        expected = [True] if number <= 6 else []  # the old project had #1..#6
        assert [c["another_pr"] for c in record.get("same_number_commits", [])] == expected
        facts = run_cli.facts(f"{REPO}#{number}", db)
        assert facts["coverage"]["gaps"] == []
        assert facts["coverage"]["file_list"] == "complete"

    three = json.loads(run_cli("show", f"{REPO}#3", "--json", "--db", db).stdout)
    assert three["merge_commit_sha"] == follow_up  # the newest part of the PR is the record
    assert three["incomplete"] == ["number-collision"]
    parts = {c["sha"]: c["another_pr"] for c in three["same_number_commits"]}
    assert parts == {new[3]: False, old_three: True}
    facts = run_cli.facts(f"{REPO}#3", db)
    assert facts["coverage"]["gaps"] == ["number-collision"]
    assert facts["coverage"]["missing_commits"] == [new[3]]
    assert facts["coverage"]["file_list"] == "partial"

    for lang, said in (("en", "Part of this PR landed in another commit"), ("zh", "该 PR 的一部分落在另一个")):
        for length in ("full", "brief"):
            for fmt in ("md", "json", "html"):
                out = run_cli(
                    "report",
                    f"{REPO}#3",
                    "--lang",
                    lang,
                    "--length",
                    length,
                    "--format",
                    fmt,
                    "--no-llm",
                    "--db",
                    db,
                ).stdout
                assert said in out, (lang, length, fmt)
                assert new[3][:7] in out  # the part not read is named
        text = run_cli("facts", f"{REPO}#3", "--lang", lang, "--db", db).stdout
        assert said in text
    feed = run_cli("feed", REPO, "--lang", "en", "--format", "json", "--db", db).stdout
    assert {item["number"] for item in json.loads(feed)["items"]} == set(range(1, 9))
    run_cli("publish", REPO, "--out", tmp_path / "site", "--db", db)
    assert (tmp_path / "site").is_dir()


def test_since_between_the_histories_keeps_only_the_new_project(tmp_path: Path, run_cli: Cli) -> None:
    repo, new, _follow_up, _old_three = _history(tmp_path / "repo")
    db = tmp_path / "db.sqlite"
    run_cli("sync", "git", repo.path, "--repo", REPO, "--since", "2020-01-01", "--db", db)
    run_cli("analyze", "--repo", REPO, "--db", db)
    listed = run_cli("list", "--repo", REPO, "--db", db).stdout
    assert "Old feature" not in listed
    for number in (1, 2, 4, 5, 6):
        record = json.loads(run_cli("show", f"{REPO}#{number}", "--json", "--db", db).stdout)
        assert record["merge_commit_sha"] == new[number]
        assert record.get("incomplete", []) == []
    run_cli("feed", REPO, "--lang", "zh", "--db", db)
