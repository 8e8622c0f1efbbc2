"""A NUL byte in a patch (a file git takes for text: its first 8,000 bytes hold none) is
content, not the start of the next commit record (issue 24: BurntSushi/ripgrep's history
stopped with "a commit record without its fields")."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.sources.git import GitSource, GitSyncOptions
from prdigest.sources.git.log_stream import split_records

REPO = "example-org/nul"
_TEXT_WITH_NUL = b"line\n" * 1700 + b"after the first 8,000 bytes \x00 a NUL\n"


def test_a_nul_inside_a_text_patch_keeps_every_commit(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# x\n"}, "Initial commit")
    repo.squash_pr(1, "Add the fixture", {"fixture.txt": _TEXT_WITH_NUL})
    repo.squash_pr(2, "Change the fixture", {"fixture.txt": _TEXT_WITH_NUL + b"more\x00\n"})
    repo.squash_pr(3, "Add code", {"code.py": "X = 1\n"})
    records = {pr.number: pr for pr in GitSource(repo.path, GitSyncOptions(repository=REPO)).pull_requests()}
    assert sorted(records) == [1, 2, 3]
    assert [f.path for f in records[2].files] == ["fixture.txt"]
    assert records[2].additions == 1
    assert [f.path for f in records[3].files] == ["code.py"]


_SHA = "0123456789abcdef0123456789abcdef01234567"


def _record(n: int, patch: bytes) -> bytes:
    head = f"{_SHA[:-2]}{n:02d}\x1fA\x1fa@b\x1f1\x1f2\x1f\x1fTitle {n} (#{n})\x1e\n".encode()
    return b"\x00" + head + patch


@settings(max_examples=60, deadline=None)
@given(cuts=st.lists(st.integers(min_value=1, max_value=400), max_size=12))
def test_records_are_the_same_wherever_the_stream_is_cut(cuts: list[int]) -> None:
    stream = b"".join(_record(n, b"diff --git a/f b/f\n+x\x00y\n" * n) for n in range(1, 6))
    chunks, at = [], 0
    for size in cuts:
        chunks.append(stream[at : at + size])
        at += size
    chunks.append(stream[at:])
    records = list(split_records(iter(chunks)))
    assert [r.message for r in records] == [f"Title {n} (#{n})" for n in range(1, 6)]
    assert [r.patch.count(b"\x00") for r in records] == [1, 2, 3, 4, 5]
