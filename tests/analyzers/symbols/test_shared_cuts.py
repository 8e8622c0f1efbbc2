"""One Python text is cut and digested once for both readers: the tree-sitter definitions
(`py_definitions`) and the `ast` outline, shape and quiet lines (`py_pieces`), sharing one
`RecentCuts`, read the same as readers each with their own."""

from __future__ import annotations

from tests.analyzers.symbols.test_py_definitions import _long_class

from prdigest.analyzers.symbols.extract import extract_definitions
from prdigest.analyzers.symbols.py_definitions import PieceDefinitions
from prdigest.analyzers.symbols.py_pieces import PieceCache, RecentCuts


def _text() -> str:
    return '"""Module."""\nimport os\n\n\n' + _long_class() + "\n\ndef after(x):\n    assert x\n    return x\n"


def test_the_second_reader_finds_the_pieces_already_cut() -> None:
    cuts = RecentCuts(4)
    definitions = PieceDefinitions(max_pieces=256, cuts=cuts)
    pieces = PieceCache(max_pieces=256, max_files=4, cuts=cuts)
    text = _text()
    found = definitions.definitions(text, "python")
    entry = cuts.of(text)
    assert cuts.of(text) is entry  # found again by the text object
    cut = dict(entry._texts)
    assert cut  # the pieces and class parts the tree-sitter reader joined and digested
    outline, shape, quiet = pieces.outline(text), pieces.shape(text), pieces.quiet_lines(text)
    assert {key: entry._texts[key] for key in cut} == cut  # the same texts, not joined again
    assert all(entry._texts[key] is value for key, value in cut.items())

    alone = PieceCache(max_pieces=256, max_files=4)
    assert (outline, shape, quiet) == (alone.outline(text), alone.shape(text), alone.quiet_lines(text))
    assert found == PieceDefinitions(max_pieces=256).definitions(text, "python")
    assert found == extract_definitions(text, "python")


def test_equal_texts_are_cut_apart_and_read_alike() -> None:
    cuts = RecentCuts(2)
    text = _text()
    twin = "".join(list(text))  # an equal text, another object
    assert twin is not text
    assert cuts.of(twin) is not cuts.of(text)
    assert cuts.of(twin).key == cuts.of(text).key
    definitions = PieceDefinitions(max_pieces=256, cuts=cuts)
    assert definitions.definitions(twin, "python") == definitions.definitions(text, "python")


def test_old_texts_make_way() -> None:
    cuts = RecentCuts(2)
    first = _text()
    entry = cuts.of(first)
    for other in ("a = 1\n", "b = 2\n"):
        cuts.of(other)
    assert cuts.of(first) is not entry
    assert cuts.of(first).cuts == entry.cuts
