"""A Python file's definitions read piece by piece equal the whole file's tree-sitter reading.

The reference is `extract_definitions` on the whole text. Texts put the cuts where they
could go wrong: decorators, nested definitions, comments after a body and at the end of the
file, a ``def`` line inside a string, syntax errors, text that was not UTF-8, carriage returns.
"""

from __future__ import annotations

import pytest
from tests.analyzers.symbols.conftest import unified_patch

from prdigest.analyzers.symbols.diffmap import extract_symbol_changes
from prdigest.analyzers.symbols.extract import extract_definitions
from prdigest.analyzers.symbols.py_definitions import PieceDefinitions
from prdigest.models.pullrequest import FileChange, FileStatus

_AWKWARD = '''\
"""Module."""
import functools


@functools.cache
@other(
    "arg",
)
def decorated(a):
    def inner():
        class Local:
            def method(self):
                return 1
        return Local
    return inner
    # a comment closing the body


# a comment between definitions
class Outer:
    """Doc."""

    @property
    def value(self):
        return 1

    class Nested:
        def deep(self):
            pass
        # indented comment after the last member

    async def later(self):
        pass
def right_after():
    x = """
def not_a_definition():
    pass
"""
    return x
if True:
    def conditional():
        pass
def last(): pass  # trailing comment
# comment at the end of the file
'''


def _both(text: str) -> tuple[object, object]:
    return PieceDefinitions(max_pieces=64).definitions(text, "python"), extract_definitions(text, "python")


@pytest.mark.parametrize(
    "text",
    [
        _AWKWARD,
        _AWKWARD.rstrip("\n"),  # no newline at the end
        _AWKWARD + "\n\n\n",
        "def only():\n    pass\n",
        "x = 1\n",
        'print "python 2"\ndef f():\n    pass\n',  # tree-sitter reads Python 2 statements
        "\n",
        "@decorator\n\ndef spaced():\n    pass\n",
        "class A:\n    pass\nclass B(A):\n    def f(self):\n        pass\n",
        # bytes that were not UTF-8, decoded with surrogateescape as the git source does
        b"# caf\xe9\ndef f():\n    return '\xff'\n\ndef g():\n    pass\n".decode("utf-8", "surrogateescape"),
    ],
)
def test_pieces_equal_the_whole_file(text: str) -> None:
    by_pieces, whole = _both(text)
    assert by_pieces == whole


def test_a_definition_line_inside_a_string_joins_the_pieces() -> None:
    text = 'def f():\n    return """\ndef g():\n    pass\n"""\n\ndef h():\n    pass\n'
    by_pieces, whole = _both(text)
    assert by_pieces == whole
    assert [d.name for d in whole] == ["f", "h"]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "text",
    [
        "def broken(:\n    pass\n\ndef fine():\n    pass\n",  # a syntax error in a piece
        "x = (\ndef f():\n    pass\n",  # a bracket never closed
        "def f():\r\n    pass\r\ndef g():\r\n    pass\r\n",  # carriage returns: read whole
        "def f():\n    return '\0'\n",
    ],
)
def test_texts_the_pieces_cannot_read_are_left_to_the_whole_file(text: str) -> None:
    assert PieceDefinitions(max_pieces=64).definitions(text, "python") is None


def test_a_piece_is_parsed_once_and_its_definitions_shift_with_it() -> None:
    cache = PieceDefinitions(max_pieces=64)
    first = "def a():\n    pass\n\ndef b():\n    pass\n"
    moved = "import os\n\n\n" + first
    assert cache.definitions(first, "python") == extract_definitions(first, "python")
    assert cache.definitions(moved, "python") == extract_definitions(moved, "python")
    assert [(d.name, d.start_line) for d in extract_definitions(moved, "python")] == [("a", 4), ("b", 7)]


def test_changed_symbols_of_a_file_with_a_syntax_error_come_from_the_whole_file() -> None:
    before = "def ok():\n    return 1\n\ndef broken(:\n    pass\n"
    after = "def ok():\n    return 2\n\ndef broken(:\n    pass\n"
    change = FileChange(
        path="m.py",
        status=FileStatus.MODIFIED,
        additions=1,
        deletions=1,
        patch=unified_patch(before, after),
        content_before=before,
        content_after=after,
    )
    symbols = extract_symbol_changes(change)
    assert [(s.name, s.change, s.start_line, s.end_line) for s in symbols] == [("ok", "modified", 1, 2)]


def _long_class(extra: str = "") -> str:
    methods = "".join(f"    def m{i}(self):\n        return {i}\n\n" for i in range(20))
    return (
        "@decorated\n"
        "class Before:\n    pass\n\n\n"
        'class Long(Base, metaclass=Meta):\n    """Doc."""\n\n    X = 1\n\n'
        + methods
        + "    @property\n    @other(\n        1,\n    )\n    def prop(self):\n"
        "        def inner():\n            pass\n        return inner\n"
        "# a comment at column 0 inside the class\n"
        "    class Nested:\n        def deep(self):\n            pass\n\n"
        "    if sys.version_info >= (3, 8):\n        def conditional(self):\n            pass\n"
        "    else:\n        def conditional(self):\n            pass\n"
        + extra
        + "    async def last(self):\n        text = '''\n    def not_a_member(self):\n'''\n"
        "        return text\n        # indented comment closing the class\n"
    )


@pytest.mark.parametrize(
    "text",
    [
        _long_class(),
        _long_class() + "\nLONG = Long()\n",  # a statement after the class, in its piece
        _long_class() + "\n\ndef after():\n    pass\n",
        _long_class("    def broken(:\n        pass\n"),  # a syntax error in one member
        _long_class().replace("    ", "\t"),  # tabs: no member cuts, read whole
        _long_class().rstrip("\n"),
    ],
)
def test_a_long_class_read_in_parts_equals_the_whole_file(text: str) -> None:
    by_pieces, whole = _both(text)
    if by_pieces is not None:
        assert by_pieces == whole
    assert "Long.prop.inner" in {d.name for d in extract_definitions(text, "python")}


def test_an_edit_of_one_method_keeps_the_other_parts() -> None:
    cache = PieceDefinitions(max_pieces=256)
    before = _long_class()
    after = before.replace("return 7\n", "return 7 + 1\n        # more\n")
    assert cache.definitions(before, "python") is not None
    assert cache.definitions(before, "python") == extract_definitions(before, "python")
    assert cache.definitions(after, "python") == extract_definitions(after, "python")


def test_a_text_read_again_is_not_cut_again_and_its_definitions_stay_its_own() -> None:
    cache = PieceDefinitions(max_pieces=64, max_files=2)
    text = _long_class() + "\n\ndef after():\n    pass\n"
    first = cache.definitions(text, "python")
    assert first == extract_definitions(text, "python")
    cache._pieces.clear()
    cache._parts.clear()
    again = cache.definitions(text, "python")
    assert again == first
    assert not cache._pieces  # the whole text's definitions were kept
    assert not cache._parts
    assert again is not None
    again.clear()  # a caller's list is its own
    assert cache.definitions(text, "python") == first


def test_a_text_the_pieces_cannot_read_is_remembered_as_such() -> None:
    cache = PieceDefinitions(max_pieces=64, max_files=2)
    text = "def ok():\n    return 1\n\ndef broken(:\n    pass\n"
    assert cache.definitions(text, "python") is None
    assert cache.definitions(text, "python") is None
    for other in ("a = 1\n", "b = 2\n", "c = 3\n"):  # the oldest whole texts make way
        assert cache.definitions(other, "python") == []
    assert len(cache._files) == 2
