"""parse_patch: every shape of patch a source hands over, read into one FileDiff."""

from __future__ import annotations

from prdigest.diff import NO_NEWLINE_MARKER, FileDiff, Line, file_diff, parse_patch
from prdigest.models.pullrequest import FileChange


def rows(diff: FileDiff) -> list[tuple[str, str, int | None, int | None]]:
    return [(line.kind, line.text, line.old_line, line.new_line) for line in diff.lines()]


def test_bare_hunks_as_github_serves_them_are_numbered() -> None:
    diff = parse_patch("@@ -1,2 +1,2 @@ def f():\n ctx\n-old\n+new")
    assert diff.numbered
    assert rows(diff) == [(" ", "ctx", 1, 1), ("-", "old", 2, None), ("+", "new", None, 2)]
    (hunk,) = diff.hunks
    assert (hunk.old_start, hunk.old_length, hunk.new_start, hunk.new_length) == (1, 2, 1, 2)
    assert hunk.section_header == "def f():"
    assert (hunk.added, hunk.removed) == (1, 1)


def test_file_headers_and_git_headers_are_read_too() -> None:
    body = "@@ -3 +3,2 @@\n-a\n+b\n+c\n"
    expected = [("-", "a", 3, None), ("+", "b", None, 3), ("+", "c", None, 4)]
    assert rows(parse_patch("--- a/x.py\n+++ b/x.py\n" + body)) == expected
    git = "diff --git a/x.py b/x.py\nindex 1111111..2222222 100644\n--- a/x.py\n+++ b/x.py\n" + body
    assert rows(parse_patch(git)) == expected


def test_several_hunks_keep_their_own_numbers() -> None:
    diff = parse_patch("@@ -1 +1 @@\n-a\n+b\n@@ -40,2 +40,2 @@ class K:\n x\n-c\n+d\n")
    assert [hunk.new_start for hunk in diff.hunks] == [1, 40]
    assert [line.number for line in diff.changes()] == [1, 1, 41, 41]
    assert diff.old_side() == ["a", "x", "c"]
    assert diff.new_side() == ["b", "x", "d"]
    assert (diff.added(), diff.removed()) == (["b", "d"], ["a", "c"])


def test_a_patch_cut_mid_hunk_is_read_leniently_without_numbers() -> None:
    diff = parse_patch("@@ -1,9 +1,9 @@\n ctx\n-old\n+new")
    assert not diff.numbered
    assert rows(diff) == [(" ", "ctx", None, None), ("-", "old", None, None), ("+", "new", None, None)]
    assert diff.numbered_hunks == ()
    assert [(line.kind, line.number, line.text) for line in diff.changes()] == [("-", None, "old"), ("+", None, "new")]


def test_lines_past_the_hunk_counts_are_not_lost() -> None:
    # unidiff stops the hunk after one line and would file "+two" as header text.
    diff = parse_patch("@@ -0,0 +1 @@\n+one\n+two\n")
    assert not diff.numbered
    assert diff.added() == ["one", "two"]


def test_no_newline_marker_marks_the_line_before_it() -> None:
    diff = parse_patch("@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n")
    assert diff.numbered
    assert [(line.kind, line.no_newline) for line in diff.lines()] == [("-", True), ("+", True)]
    assert NO_NEWLINE_MARKER == "\\ No newline at end of file"


def test_crlf_line_endings_are_not_part_of_the_text() -> None:
    diff = parse_patch("@@ -1,2 +1,2 @@\r\n ctx\r\n-old\r\n+new\r\n")
    assert diff.numbered
    assert [line.text for line in diff.lines()] == ["ctx", "old", "new"]


def test_text_that_was_not_utf8_parses_with_its_replacement_characters() -> None:
    # Sources decode with errors="replace"; the parser sees U+FFFD, never bytes.
    diff = parse_patch("@@ -1 +1 @@\n-caf\ufffd\n+caf\u00e9\n")
    assert diff.numbered
    assert diff.removed() == ["caf\ufffd"]
    assert diff.added() == ["café"]


def test_binary_and_empty_patches_have_no_hunks() -> None:
    assert parse_patch("Binary files a/logo.png and b/logo.png differ\n") == FileDiff()
    binary = "diff --git a/x.bin b/x.bin\nindex 1111111..2222222\nGIT binary patch\nliteral 3\nKcmZ?\n"
    assert parse_patch(binary).hunks == ()
    assert parse_patch("not a patch at all") == FileDiff()
    assert parse_patch("") == FileDiff()
    assert parse_patch(None) == FileDiff()
    assert file_diff(FileChange(path="a.py")) == FileDiff()


def test_a_blank_line_after_the_last_hunk_is_not_part_of_it() -> None:
    diff = parse_patch("@@ -1 +1 @@\n-a\n+b\n\n")
    assert diff.numbered
    assert rows(diff) == [("-", "a", 1, None), ("+", "b", None, 1)]


def test_each_patch_is_parsed_once() -> None:
    patch = "@@ -1 +1 @@\n-once\n+twice\n"
    first = parse_patch(patch)
    assert parse_patch("".join([patch])) is first  # equal text, another string object
    assert file_diff(FileChange(path="elsewhere.py", patch=patch)) is first


def test_line_number_is_where_the_line_is() -> None:
    assert Line("+", "x", None, 7).number == 7
    assert Line("-", "x", 3, None).number == 3
    assert Line(" ", "x", 3, 7).number == 7
