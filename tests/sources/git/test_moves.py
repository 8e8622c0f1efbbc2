"""What a commit's own diff proves of the lines it added: moved from another file (with their
neighbours), re-wrapped, or written there (sources/git/moves.py, issue 25)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.sources.git.moves import read_moves

BLOCK = "    if value > limit:\n        total += value * 2\n"


def test_a_block_moved_to_another_file_says_where_it_was(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"a.py": "def f(value, limit, total):\n" + BLOCK + "    return total\n"}, "Add f")
    repo.commit({"a.py": "def f():\n    pass\n", "b.py": "def g(value, limit, total):\n" + BLOCK}, "Move f's body")
    head = repo.git("rev-parse", "HEAD").strip()
    moves = read_moves(repo.path, [head])[head]
    assert moves is not None
    assert moves.source_of("b.py", 2) == ("a.py", 2)
    assert moves.source_of("b.py", 3) == ("a.py", 3)
    assert moves.source_of("b.py", 1) is None  # a new line: the commit wrote it
    assert moves.source_of("a.py", 2) is None  # `pass`: written here


def test_a_block_that_could_come_from_two_files_is_not_followed(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    body = "def f(value, limit, total):\n" + BLOCK
    repo.commit({"a.py": body, "b.py": body}, "Add two copies")
    repo.commit({"a.py": None, "b.py": None, "c.py": body}, "Keep one copy")
    head = repo.git("rev-parse", "HEAD").strip()
    moves = read_moves(repo.path, [head])[head]
    assert moves is not None
    assert moves.source_of("c.py", 2) is None  # a.py's or b.py's: git cannot say which


def test_a_merge_or_the_root_commit_proves_nothing(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"a.py": BLOCK}, "Initial commit")
    repo.merge_pr(2, "alice/feature", "Add feature", {"b.py": BLOCK})
    merge, root = repo.git("rev-parse", "HEAD", "HEAD~1").split()
    assert read_moves(repo.path, [merge, root]) == {merge: None, root: None}
