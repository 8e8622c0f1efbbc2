"""Number collisions: two first-parent commits carrying the same ``(#N)`` (issue 10)."""

from __future__ import annotations

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


def test_several_real_commits_keep_the_newest_and_mark_it_incomplete(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# x\n"}, "Initial commit")
    older = repo.squash_pr(7, "Add the parser", {"parser.py": "def parse(): ...\n"})
    newer = repo.squash_pr(7, "Add the parser", {"parser_test.py": "def test(): ...\n"})
    records, source = _records(repo)
    pr = records[7]
    assert pr.merge_commit_sha == newer
    assert [c.sha for c in pr.same_number_commits] == [older]
    assert pr.incomplete == [IncompleteReason.NUMBER_COLLISION.value]
    assert source.counters.collisions == {"newest-of-several-kept": [7]}


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
