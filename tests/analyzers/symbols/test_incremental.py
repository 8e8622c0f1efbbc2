"""Incremental parsing of the new file gives the same tree as parsing it from scratch."""

from __future__ import annotations

import difflib

from hypothesis import given, settings
from hypothesis import strategies as st

from prdigest.analyzers.symbols.extract import definitions_from_tree, encode_source
from prdigest.analyzers.symbols.incremental import apply_edits, hunks_match
from prdigest.analyzers.symbols.languages import parse
from prdigest.diff import parse_patch

LINES = st.sampled_from(
    [
        "def f(x):",
        "    return x",
        "class A:",
        "    def m(self):",
        "        pass",
        "    y = 'é\ufffd'",
        "",
        "x = (",
        ")",
        "# comment",
        '"""doc',
        "int main() {",
        "}",
        "fn g() { 1 }",
    ]
)


def patch_of(before: str, after: str) -> str:
    lines = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True), n=2)
    return "".join(list(lines)[2:])


@settings(max_examples=150, deadline=None)
@given(
    key=st.sampled_from(["python", "cpp", "rust"]),
    before_lines=st.lists(LINES, max_size=30),
    edits=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 3), st.lists(LINES, max_size=3)), max_size=4),
)
def test_incremental_parse_equals_full_parse(
    key: str, before_lines: list[str], edits: list[tuple[int, int, list[str]]]
) -> None:
    after_lines = list(before_lines)
    for position, delete, insert in edits:
        at = min(position, len(after_lines))
        after_lines[at : at + delete] = insert
    before = "".join(line + "\n" for line in before_lines)
    after = "".join(line + "\n" for line in after_lines)
    hunks = parse_patch(patch_of(before, after)).hunks
    assert hunks_match(hunks, before, after)
    before_bytes, after_bytes = encode_source(before), encode_source(after)
    old_tree = parse(key, before_bytes)
    assert apply_edits(old_tree, hunks, before_bytes, after_bytes)
    incremental = parse(key, after_bytes, old_tree)
    full = parse(key, after_bytes)
    assert str(incremental.root_node) == str(full.root_node)
    assert definitions_from_tree(incremental, key) == definitions_from_tree(full, key)


def test_hunks_that_do_not_describe_the_contents_are_refused() -> None:
    before = "def f():\n    return 1\n"
    after = "def f():\n    return 2\n"
    hunks = parse_patch(patch_of(before, after)).hunks
    assert hunks_match(hunks, before, after)
    assert not hunks_match(hunks, before, "def f():\n    return 3\n")
    assert not hunks_match(hunks, "", after)
    stale = parse_patch("@@ -40,1 +40,1 @@\n-a\n+b\n").hunks
    assert not hunks_match(stale, before, after)
    tree = parse("python", encode_source(before))
    assert not apply_edits(tree, stale, encode_source(before), encode_source(after))
