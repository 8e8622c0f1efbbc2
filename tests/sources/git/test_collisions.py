"""Number collisions: two first-parent commits carrying the same ``(#N)`` (issue 10)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from click.testing import CliRunner
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.cli.main import cli
from prdigest.models.pullrequest import IncompleteReason, PullRequest
from prdigest.sources.git import GitSource, GitSyncOptions

REPO = "example-org/collide"


def _records(repo: GitRepoBuilder) -> tuple[dict[int, PullRequest], GitSource]:
    source = GitSource(repo.path, GitSyncOptions(repository=REPO))
    return {pr.number: pr for pr in source.pull_requests()}, source


def test_an_empty_commit_never_replaces_the_real_diff(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# x\n"}, "Initial commit")
    real = repo.squash_pr(5, "Add the cache", {"cache.py": "CACHE = {}\n"})
    empty = repo.squash_pr(5, "Add the cache", {})  # an empty follow-up commit, same subject
    repo.squash_pr(6, "Other", {"other.py": "x = 1\n"})
    records, source = _records(repo)
    pr = records[5]
    assert pr.merge_commit_sha == real
    assert [f.path for f in pr.files] == ["cache.py"]
    assert [(c.sha, c.files_changed) for c in pr.same_number_commits] == [(empty, 0)]
    assert pr.incomplete == []  # the dropped commit had no diff: nothing is missing
    assert source.counters.collisions == {"empty-commit-skipped": [5]}
    assert records[6].same_number_commits == []


def test_one_pr_in_two_real_commits_keeps_the_newest_and_names_the_part_not_read(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# x\n"}, "Initial commit")
    older = repo.squash_pr(7, "Add the parser", {"parser.py": "def parse(): ...\n"})
    newer = repo.squash_pr(7, "Add the parser", {"parser_test.py": "def test(): ...\n"})
    records, source = _records(repo)
    pr = records[7]
    assert pr.merge_commit_sha == newer
    assert [c.sha for c in pr.same_number_commits] == [older]
    assert pr.incomplete == [IncompleteReason.NUMBER_COLLISION.value]
    assert [c.another_pr for c in pr.same_number_commits] == [False]
    assert source.counters.collisions == {"same-pr-in-several-commits": [7]}


def test_sync_reports_collisions(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# x\n"}, "Initial commit")
    repo.squash_pr(5, "Add the cache", {"cache.py": "CACHE = {}\n"})
    repo.squash_pr(5, "Add the cache", {})
    result = CliRunner().invoke(
        cli, ["sync", "git", str(repo.path), "--repo", REPO, "--db", str(tmp_path / "db.sqlite")]
    )
    assert result.exit_code == 0, result.output
    assert (
        "number collisions: 1 PR number carried by several commits "
        "(1 an empty commit passed over for the one with the diff: #5)"
    ) in result.output


def test_a_commit_citing_an_issue_later_is_another_pr(tmp_path: Path) -> None:
    # #3 landed among #1..#8; after #40 a commit pushed straight to main cites issue 3 as
    # "(#3)". It sits among #36..#40 on the main line, out of sequence; the first is #3.
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# x\n"}, "Initial commit", date=datetime(2024, 1, 1, tzinfo=UTC))
    shas = {}
    for n in range(1, 41):
        shas[n] = repo.squash_pr(n, f"Feature {n}", {f"f{n}.py": f"X = {n}\n"})
    later = repo.squash_pr(3, "Fix the crash reported in the issue", {"f3.py": "X = 33\n"})
    repo.squash_pr(41, "Feature 41", {"f41.py": "X = 41\n"})
    records, source = _records(repo)
    pr = records[3]
    assert pr.merge_commit_sha == shas[3]
    assert pr.title == "Feature 3"
    assert [(c.sha, c.another_pr) for c in pr.same_number_commits] == [(later, True)]
    assert pr.incomplete == []
    assert source.counters.collisions == {"another-pr-same-number": [3]}
    assert source.counters.collisions_kept_by == {"neighbouring-numbers": [3]}


def test_two_histories_each_in_sequence_keep_the_tips_numbering(tmp_path: Path) -> None:
    # An older project's #1..#10 below the new project's #1..#10: both #5s sit among their own
    # history's numbers, so the evidence cannot choose and the tip's numbering wins.
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# x\n"}, "Initial commit", date=datetime(2015, 1, 1, tzinfo=UTC))
    for n in range(1, 11):
        repo.squash_pr(n, f"Old {n}", {f"old{n}.py": f"X = {n}\n"})
    new = {
        n: repo.squash_pr(n, f"New {n}", {f"new{n}.py": f"X = {n}\n"}, date=datetime(2024, 1, n, tzinfo=UTC))
        for n in range(1, 11)
    }
    records, source = _records(repo)
    assert {n: records[n].merge_commit_sha for n in range(1, 11)} == new
    assert all(records[n].incomplete == [] for n in range(1, 11))
    assert set(source.counters.collisions) == {"another-pr-same-number"}
    assert set(source.counters.collisions_kept_by) == {"newest-with-diff"}


def test_the_pull_ref_decides_which_commit_is_the_pr(tmp_path: Path) -> None:
    # Two commits carry #9 with different titles; refs/pull/9/head was committed just before
    # the older one landed, so the older one is #9 although the newer one also has a diff.
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# x\n"}, "Initial commit", date=datetime(2024, 1, 1, tzinfo=UTC))
    head = repo.create_pull_ref(9, {"cache.py": "CACHE = {}\n"}, date=datetime(2024, 2, 1, 9, tzinfo=UTC))
    older = repo.squash_pr(9, "Add the cache", {"cache.py": "CACHE = {}\n"}, date=datetime(2024, 2, 1, 10, tzinfo=UTC))
    newer = repo.squash_pr(9, "Tune the cache", {"cache.py": "CACHE = {1: 1}\n"}, date=datetime(2024, 5, 1, tzinfo=UTC))
    records, source = _records(repo)
    assert head != older
    pr = records[9]
    assert pr.merge_commit_sha == older
    assert [(c.sha, c.another_pr) for c in pr.same_number_commits] == [(newer, True)]
    assert pr.incomplete == []
    assert source.counters.collisions_kept_by == {"pull-ref": [9]}


def test_the_same_title_far_apart_is_another_pr(tmp_path: Path) -> None:
    # One title, the same number, two years apart: a merged-in history's own PR, not a part.
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# x\n"}, "Initial commit", date=datetime(2020, 1, 1, tzinfo=UTC))
    old = repo.squash_pr(4, "Update the docs", {"docs.md": "a\n"}, date=datetime(2020, 1, 2, tzinfo=UTC))
    new = repo.squash_pr(4, "Update the docs", {"docs.md": "b\n"}, date=datetime(2022, 1, 2, tzinfo=UTC))
    records, _source = _records(repo)
    assert records[4].merge_commit_sha == new
    assert [(c.sha, c.another_pr) for c in records[4].same_number_commits] == [(old, True)]
    assert records[4].incomplete == []
