"""Property tests of the one diff parser: it never raises, and on well-formed patches it
numbers every line where it is in the old and new texts and agrees with the lenient reading."""

from __future__ import annotations

import difflib

from hypothesis import given, settings
from hypothesis import strategies as st

from prdigest.diff import FileDiff, parse_patch
from prdigest.diff.lenient import read_leniently

PIECES = st.sampled_from(
    ["@@ -1,2 +1,2 @@", "@@ x", "@@ -0,0 +1 @@ f()", " c", "-a", "+b", "+++ b/x", "--- a/x", "\\ No newline", ""]
)
# One line of a text file: no character that str.splitlines would cut the line at.
LINE = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\x85"), max_size=12)
TEXT = st.lists(st.one_of(LINE, st.sampled_from(["", "x", "y", "@@ -1 +1 @@", "--- a", "+++ b", "\\ n"])), max_size=25)


def unified(before: list[str], after: list[str], context: int) -> str:
    """A bare-hunks patch, as GitHub serves it, of two texts that end in a newline."""
    lines = difflib.unified_diff([f"{x}\n" for x in before], [f"{x}\n" for x in after], n=context)
    return "".join(list(lines)[2:])


def kinds_and_texts(diff: FileDiff) -> list[tuple[str, str]]:
    return [(line.kind, line.text) for line in diff.lines()]


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=20) | st.lists(st.text(max_size=30), max_size=10), st.booleans())
def test_any_text_parses_without_raising(pieces: list[str], newline: bool) -> None:
    patch = "\n".join(pieces) + ("\n" if newline else "")
    diff = parse_patch(patch)
    for line in diff.lines():
        assert line.kind in ("+", "-", " ")
        assert line.number is None or line.number >= 0
        assert "\n" not in line.text
        assert diff.numbered or (line.old_line is None and line.new_line is None)
    assert len(diff.added()) <= patch.count("+")
    assert len(diff.removed()) <= patch.count("-")


@settings(max_examples=300, deadline=None)
@given(before=TEXT, after=TEXT, context=st.integers(0, 4))
def test_well_formed_patches_are_numbered_where_they_are(before: list[str], after: list[str], context: int) -> None:
    patch = unified(before, after, context)
    diff = parse_patch(patch)
    if not patch:
        assert diff == FileDiff()
        return
    assert diff.numbered
    for line in diff.lines():
        if line.kind != "+":
            assert line.old_line is not None
            assert before[line.old_line - 1] == line.text
        if line.kind != "-":
            assert line.new_line is not None
            assert after[line.new_line - 1] == line.text
    opcodes = difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes()
    assert len(diff.removed()) == sum(i2 - i1 for tag, i1, i2, _, _ in opcodes if tag in ("replace", "delete"))
    assert len(diff.added()) == sum(j2 - j1 for tag, _, _, j1, j2 in opcodes if tag in ("replace", "insert"))
    assert kinds_and_texts(diff) == kinds_and_texts(FileDiff(read_leniently(patch)))


@settings(max_examples=200, deadline=None)
@given(before=TEXT, after=TEXT)
def test_with_whole_context_the_sides_are_the_texts(before: list[str], after: list[str]) -> None:
    diff = parse_patch(unified(before, after, max(len(before), len(after))))
    if before != after:
        assert diff.old_side() == before
        assert diff.new_side() == after


@settings(max_examples=300, deadline=None)
@given(before=TEXT, after=TEXT, keep=st.integers(0, 60))
def test_a_cut_patch_keeps_every_line_it_still_has(before: list[str], after: list[str], keep: int) -> None:
    lines = unified(before, after, 2).splitlines()
    cut = "\n".join(lines[:keep])
    diff = parse_patch(cut)
    assert kinds_and_texts(diff) == kinds_and_texts(FileDiff(read_leniently(cut)))
    if not diff.numbered:
        assert diff.numbered_hunks == ()


@settings(max_examples=200, deadline=None)
@given(before=TEXT, after=TEXT, context=st.integers(0, 3))
def test_printing_a_parse_back_parses_to_the_same(before: list[str], after: list[str], context: int) -> None:
    diff = parse_patch(unified(before, after, context))
    printed = "".join(
        f"@@ -{h.old_start},{h.old_length} +{h.new_start},{h.new_length} @@ {h.section_header}\n"
        + "".join(f"{line.kind}{line.text}\n" for line in h.lines)
        for h in diff.hunks
    )
    assert parse_patch(printed) == diff


NEAR_PATCH = st.sampled_from(
    [
        "@@ -1,2 +1,2 @@",
        "@@ -1 +1 @@ def f():  ",
        "@@ -0,0 +1,2 @@",
        "@@ -3,0 +4 @@",
        "@@ -1,3 +1,1 @@x",
        " c",
        "-a",
        "+b",
        "+",
        "-",
        " ",
        "\\ No newline at end of file",
        "\\ other",
        "",
        "x",
        "+\r",
        " a\u2028b",
    ]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(NEAR_PATCH, max_size=14), st.booleans())
def test_the_fast_reading_gives_what_unidiff_gives_whenever_it_reads(pieces: list[str], newline: bool) -> None:
    from prdigest.diff.parse import _parse_with_unidiff, _read_well_formed

    patch = "\n".join(pieces) + ("\n" if newline else "")
    fast = _read_well_formed(patch)
    if fast is not None:
        assert FileDiff(fast, numbered=True) == _parse_with_unidiff(patch)


@settings(max_examples=300, deadline=None)
@given(before=TEXT, after=TEXT, context=st.integers(0, 4), cut_newline=st.booleans())
def test_well_formed_patches_take_the_fast_reading(
    before: list[str], after: list[str], context: int, cut_newline: bool
) -> None:
    from prdigest.diff.parse import _parse_with_unidiff, _read_well_formed

    patch = unified(before, after, context)
    if cut_newline and patch:
        patch = patch + "\\ No newline at end of file\n"
    fast = _read_well_formed(patch)
    if patch:
        assert fast is not None
        assert FileDiff(fast, numbered=True) == _parse_with_unidiff(patch)
