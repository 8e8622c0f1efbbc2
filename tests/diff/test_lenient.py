"""read_leniently: the prefix reading used when unidiff rejects a patch or reads it short."""

from __future__ import annotations

from prdigest.diff.lenient import read_leniently


def test_lines_under_each_header_in_order() -> None:
    hunks = read_leniently("@@ -1,9 +1,9 @@ def f():\n a\n-b\n+c\n\n@@ -20 +20 @@\n+d")
    assert [(h.old_start, h.new_start, h.section_header) for h in hunks] == [(1, 1, "def f():"), (20, 20, "")]
    assert [(line.kind, line.text) for line in hunks[0].lines] == [(" ", "a"), ("-", "b"), ("+", "c"), (" ", "")]
    assert all(line.old_line is None and line.new_line is None for h in hunks for line in h.lines)


def test_text_before_the_first_hunk_and_file_headers_are_skipped() -> None:
    patch = "junk\n+not in a hunk\n@@ -1 +1 @@\n-a\ndiff --git a/y b/y\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n+b\n"
    hunks = read_leniently(patch)
    assert [[(line.kind, line.text) for line in h.lines] for h in hunks] == [[("-", "a")], [("+", "b")]]


def test_a_header_that_is_not_one_still_opens_a_hunk() -> None:
    (hunk,) = read_leniently("@@ x\n+a\n\\ No newline at end of file\n")
    assert (hunk.old_start, hunk.section_header) == (0, "")
    assert [(line.kind, line.text, line.no_newline) for line in hunk.lines] == [("+", "a", True)]


def test_an_empty_hunk_with_no_header_text_is_dropped() -> None:
    assert read_leniently("@@ -1 +1 @@\n@@ -5 +5 @@\n+x") == read_leniently("@@ -5 +5 @@\n+x")
    assert read_leniently("no hunks here\n") == ()
