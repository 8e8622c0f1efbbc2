"""Squash and merge histories, open refs, co-authors, names: through the CLI, on real git."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from tests.helpers.gitrepo import GitRepoBuilder
from tests.sources.git.conftest import SyncInProcess, load_pr, stored_numbers

REPO = "example-org/example-project"
BOB = ("Bob Martin", "bob@example.com")
ALICE = ("Alice Chen", "alice@example.com")


def _base(path: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(path)
    repo.set_origin(f"git@github.com:{REPO}.git")
    repo.commit({"README.md": "# demo\n", "src/app.py": "def run() -> int:\n    return 1\n"}, "Initial commit")
    return repo


def test_squash_commit_becomes_a_merged_pr(tmp_path: Path, sync_in_process: SyncInProcess) -> None:
    repo = _base(tmp_path / "repo")
    repo.commit({"notes.txt": "direct push\n"}, "Direct push without a PR")
    sha = repo.squash_pr(
        7,
        "Make run return two",
        {"src/app.py": "def run() -> int:\n    return 2\n"},
        body="Motivation: callers expect 2 (#5).",
        author=BOB,
        co_authors=[ALICE, ("Carol Diaz", "carol@example.com")],
    )
    db = tmp_path / "p.db"
    out = sync_in_process(repo.path, "--db", db)
    assert out.strip() == f"synced 1 pull request from {repo.path} into {db} (1 new, 0 updated, 0 unchanged)"
    pr = load_pr(db, REPO, 7)
    assert pr.title == "Make run return two"
    assert pr.body.startswith("Motivation: callers expect 2 (#5).")
    assert (pr.state.value, pr.source, pr.author) == ("merged", "git", "Bob Martin")
    assert pr.url == f"https://github.com/{REPO}/pull/7"
    assert pr.head_sha == sha == pr.merge_commit_sha
    assert pr.base_sha == repo.head("HEAD~1")
    assert pr.merged_at is not None
    assert pr.merged_at.tzinfo is not None
    assert pr.created_at == pr.merged_at  # squash: author time == committer time here
    assert pr.base_ref == "main"
    [change] = pr.files
    assert (change.path, change.status.value, change.additions, change.deletions) == ("src/app.py", "modified", 1, 1)
    assert change.patch is not None
    assert "+    return 2" in change.patch
    assert "-    return 1" in change.patch
    assert change.content_before == "def run() -> int:\n    return 1\n"
    assert change.content_after == "def run() -> int:\n    return 2\n"
    [commit] = pr.commits
    assert commit.co_authors == ["Alice Chen <alice@example.com>", "Carol Diaz <carol@example.com>"]
    assert (pr.additions, pr.deletions, pr.changed_files_count) == (1, 1, 1)


def test_merge_commit_uses_first_parent_diff_and_branch_commits(tmp_path: Path, sync_in_process: SyncInProcess) -> None:
    repo = _base(tmp_path / "repo")
    merge = repo.merge_pr(
        12,
        "bob/feature",
        "Add a feature module",
        {"src/feature.py": "VALUE = 1\n"},
        body="Longer explanation of the feature.",
        author=BOB,
        merger=ALICE,
        extra_commits=[({"src/feature.py": "VALUE = 2\n", "tests/test_feature.py": "def test(): pass\n"}, "Tweak")],
    )
    db = tmp_path / "p.db"
    sync_in_process(repo.path, "--db", db, "--no-contents")
    pr = load_pr(db, REPO, 12)
    assert pr.title == "Add a feature module"
    assert pr.body == "Longer explanation of the feature."
    assert pr.author == "Bob Martin"  # the branch's author, not the person who merged
    assert pr.head_ref == "feature"
    assert pr.merge_commit_sha == merge
    assert pr.base_sha == repo.head(f"{merge}^1")
    assert pr.head_sha == repo.head(f"{merge}^2")
    # The first-parent diff: the branch's net effect, both files, VALUE = 2 only.
    assert sorted((f.path, f.status.value) for f in pr.files) == [
        ("src/feature.py", "added"),
        ("tests/test_feature.py", "added"),
    ]
    feature = next(f for f in pr.files if f.path == "src/feature.py")
    assert feature.patch is not None
    assert "+VALUE = 2" in feature.patch
    assert "VALUE = 1" not in feature.patch
    assert feature.content_after is None  # --no-contents
    assert [c.message for c in pr.commits] == ["Add a feature module", "Tweak"]


def test_merge_without_body_takes_the_branch_as_title(tmp_path: Path, sync_in_process: SyncInProcess) -> None:
    repo = _base(tmp_path / "repo")
    repo.git("checkout", "-q", "-b", "topic")
    repo.commit({"a.txt": "a\n"}, "work")
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "-m", "Merge pull request #3 from someone/topic", "topic")
    db = tmp_path / "p.db"
    sync_in_process(repo.path, "--db", db)
    assert load_pr(db, REPO, 3).title == "someone/topic"


def test_pull_refs_are_open_unless_merged(tmp_path: Path, sync_in_process: SyncInProcess) -> None:
    repo = _base(tmp_path / "repo")
    repo.squash_pr(4, "Merged one", {"a.txt": "a\n"})
    merged_head = repo.create_pull_ref(4, {"a.txt": "a\n"})  # the ref of an already merged PR
    open_head = repo.create_pull_ref(9, {"src/wip.py": "x = 1\n"}, message="Work in progress on x", author=BOB)
    repo.squash_pr(5, "Later main work", {"b.txt": "b\n"})
    db = tmp_path / "p.db"
    sync_in_process(repo.path, "--db", db)
    assert stored_numbers(db) == {4: "merged", 5: "merged", 9: "open"}
    pr = load_pr(db, REPO, 9)
    assert (pr.title, pr.author, pr.head_sha, pr.merged_at) == ("Work in progress on x", "Bob Martin", open_head, None)
    assert pr.base_sha == repo.head("main~1")  # the merge-base, not the newer main
    assert [f.path for f in pr.files] == ["src/wip.py"]  # later main work is not in the PR's diff
    assert load_pr(db, REPO, 4).head_sha != merged_head


def test_renames_binaries_empty_commits_and_odd_bytes(tmp_path: Path, sync_in_process: SyncInProcess) -> None:
    repo = _base(tmp_path / "repo")
    repo.commit({"data/blob.bin": b"\x00\x01\x02", "docs/old name.md": "line\n" * 20}, "Add files")
    repo.squash_pr(
        20,
        "Rename docs and update a binary",
        {"docs/old name.md": None, "docs/new name.md": "line\n" * 19 + "changed\n", "data/blob.bin": b"\x00\x09"},
    )
    repo.squash_pr(21, "An empty PR", {})
    repo.commit({"latin1.txt": "caf\xe9\n".encode("latin-1")}, "Add latin-1 text")
    # git commit would re-encode the message; write a raw commit object with latin-1 bytes.
    tree, parent = repo.head("HEAD^{tree}"), repo.head("HEAD~1")
    raw = (
        f"tree {tree}\nparent {parent}\nauthor A <a@x> 1704103200 +0000\ncommitter A <a@x> 1704103200 +0000\n\n"
    ).encode() + "Add latin-1 text caf\xe9 (#22)\n".encode("latin-1")
    odd_sha = repo.git("hash-object", "-t", "commit", "-w", "--stdin", stdin=raw)
    repo.git("update-ref", "refs/heads/main", odd_sha)
    db = tmp_path / "p.db"
    sync_in_process(repo.path, "--db", db)
    renamed = load_pr(db, REPO, 20)
    by_path = {f.path: f for f in renamed.files}
    assert by_path["docs/new name.md"].status.value == "renamed"
    assert by_path["docs/new name.md"].previous_path == "docs/old name.md"
    assert (by_path["docs/new name.md"].additions, by_path["docs/new name.md"].deletions) == (1, 1)
    assert by_path["data/blob.bin"].binary
    assert by_path["data/blob.bin"].patch is None
    empty = load_pr(db, REPO, 21)
    assert (empty.files, empty.additions, empty.title) == ([], 0, "An empty PR")
    odd = load_pr(db, REPO, 22)
    assert odd.title == "Add latin-1 text caf\ufffd"
    [latin] = odd.files
    assert latin.patch is not None
    assert "+caf\ufffd" in latin.patch
    assert latin.additions == 1


def test_two_thousand_file_commit(tmp_path: Path, sync_in_process: SyncInProcess) -> None:
    repo = _base(tmp_path / "repo")
    repo.squash_pr(30, "Vendor many files", {f"vendor/f{i:04d}.txt": f"{i}\n" for i in range(2000)})
    db = tmp_path / "p.db"
    sync_in_process(repo.path, "--db", db)
    pr = load_pr(db, REPO, 30)
    assert len(pr.files) == 2000
    assert pr.additions == 2000
    assert {f.status.value for f in pr.files} == {"added"}


def test_since_and_limit(tmp_path: Path, sync_in_process: SyncInProcess) -> None:
    repo = _base(tmp_path / "repo")
    for number in range(1, 7):
        repo.squash_pr(number, f"Change {number}", {"n.txt": f"{number}\n"}, date=datetime(2024, 3, number, tzinfo=UTC))
    limited, since = tmp_path / "limit.db", tmp_path / "since.db"
    sync_in_process(repo.path, "--db", limited, "--limit", "2")
    assert sorted(stored_numbers(limited)) == [5, 6]
    sync_in_process(repo.path, "--db", since, "--since", "2024-03-04")
    assert sorted(stored_numbers(since)) == [4, 5, 6]


def test_repository_name_from_https_origin_and_override(tmp_path: Path, sync_in_process: SyncInProcess) -> None:
    repo = _base(tmp_path / "repo")
    repo.set_origin("https://github.com/Some-Org/some.project.git")
    repo.squash_pr(1, "One", {"a": "a\n"})
    db = tmp_path / "p.db"
    sync_in_process(repo.path, "--db", db)
    assert load_pr(db, "Some-Org/some.project", 1).url == "https://github.com/Some-Org/some.project/pull/1"
    sync_in_process(repo.path, "--db", db, "--repo", "other/name")
    assert load_pr(db, "other/name", 1).number == 1


def test_example_repository_has_the_promised_history(tmp_path: Path, sync_in_process: SyncInProcess) -> None:
    from prdigest.demo.example_repo import build_example_repository

    path = build_example_repository(tmp_path / "example")
    db = tmp_path / "p.db"
    sync_in_process(path, "--db", db)
    numbers = stored_numbers(db)
    assert len(numbers) == 12
    assert set(numbers.values()) == {"merged"}
    pin = load_pr(db, REPO, 104).files[0]
    assert pin.patch is not None
    assert "-cupy-cuda13x<14.1.0" in pin.patch
    assert "+cupy-cuda13x!=14.1.0" in pin.patch
    revert = load_pr(db, REPO, 105)
    assert revert.title.startswith('Revert "')
    assert f"This reverts commit {load_pr(db, REPO, 103).head_sha}." in revert.body
    removed = load_pr(db, REPO, 108).files[0]
    assert removed.content_before is not None
    assert "def assert_cupy_available" in removed.content_before
    assert removed.content_after is not None
    assert "assert_cupy_available" not in removed.content_after
    assert {f.path for f in load_pr(db, REPO, 109).files} == {"Dockerfile", "setup.py"}
    assert any(f.path.startswith(".github/workflows/") for f in load_pr(db, REPO, 106).files)
