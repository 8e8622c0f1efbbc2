"""The git-output parsers: known shapes, and no crash on anything (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prdigest.errors import SourceError
from prdigest.sources.git.branch_commits import parse_commit_object
from prdigest.sources.git.diff_files import parse_patch, unquote_path
from prdigest.sources.git.log_stream import split_records
from prdigest.sources.git.recognize import PRShape, recognize
from prdigest.sources.git.repository import repository_from_url
from prdigest.sources.git.trailers import co_authors


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Fix cache (#12)", (12, PRShape.SQUASH, "Fix cache")),
        (
            'Revert "Fix cache (#12)" (#15)\n\nThis reverts commit abc.',
            (15, PRShape.SQUASH, 'Revert "Fix cache (#12)"'),
        ),
        ("Merge pull request #7 from a/b\n\nTitle here\n\nBody", (7, PRShape.MERGE, "Title here")),
        ("Merge pull request #7 from a/b", (7, PRShape.MERGE, "a/b")),
    ],
)
def test_recognize_shapes(message: str, expected: tuple[int, PRShape, str]) -> None:
    found = recognize(message)
    assert found is not None
    assert (found.number, found.shape, found.title) == expected


@pytest.mark.parametrize("message", ["Fix (#0)", "Fix #12", "Merge branch 'main' into x", "(#12) at start only x", ""])
def test_not_pr_shaped(message: str) -> None:
    assert recognize(message) is None


@given(st.text())
def test_recognize_never_crashes(message: str) -> None:
    found = recognize(message)
    assert found is None or found.number >= 1


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://github.com/o/n.git", "o/n"),
        ("https://github.com/o/n", "o/n"),
        ("git@github.com:o/n.git", "o/n"),
        ("ssh://git@github.com:22/o/n.git", "o/n"),
        ("/local/path", None),
        ("https://github.com/only", None),
    ],
)
def test_repository_from_url(url: str, expected: str | None) -> None:
    assert repository_from_url(url) == expected


@given(st.text())
def test_repository_from_url_never_crashes(url: str) -> None:
    name = repository_from_url(url)
    assert name is None or name.count("/") == 1


def test_co_authors_are_distinct_and_ordered() -> None:
    message = "T\n\nbody\n\nCo-authored-by: A <a@x>\nco-authored-by:  B <b@x> \nCo-authored-by: A <a@x>\n"
    assert co_authors(message) == ["A <a@x>", "B <b@x>"]


@given(st.text())
def test_co_authors_never_crash(message: str) -> None:
    assert all(who.strip() == who and who for who in co_authors(message))


def test_unquote_path() -> None:
    assert unquote_path('"a/t\\303\\251st \\"q\\".txt"') == 'a/tést "q".txt'
    assert unquote_path("plain/path.py") == "plain/path.py"


@given(st.binary(max_size=2000))
def test_parse_patch_never_crashes(raw: bytes) -> None:
    for parsed in parse_patch(b"diff --git a/x b/x\n" + raw).files:
        assert parsed.change.additions >= 0
        assert parsed.change.deletions >= 0


@given(st.binary(max_size=2000))
def test_split_records_reports_malformed_input(raw: bytes) -> None:
    try:
        commits = list(split_records(iter([b"\x00" + raw])))
    except SourceError:
        return
    assert len(commits) == raw.count(b"\x00") + 1


def test_split_records_across_chunk_boundaries() -> None:
    record = b"\x00" + b"\x1f".join([b"a" * 40, b"N", b"e@x", b"1700000000", b"1700000001", b"p1 p2", b"Msg (#3)"])
    stream = (record + b"\x1e\n\ndiff --git a/f b/f\n") * 3
    pieces = [stream[i : i + 7] for i in range(0, len(stream), 7)]
    commits = list(split_records(iter(pieces)))
    assert [c.parents for c in commits] == [("p1", "p2")] * 3
    assert all(c.patch == b"diff --git a/f b/f\n" and c.message == "Msg (#3)" for c in commits)


@given(st.binary(max_size=500))
def test_parse_commit_object_never_crashes(raw: bytes) -> None:
    commit = parse_commit_object("0" * 40, raw)
    assert isinstance(commit.message, str)
