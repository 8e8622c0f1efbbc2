"""A Python file's tree-sitter definitions, parsed piece by piece, each piece once.

The file is cut where `py_pieces` cuts it (before top-level ``def``, ``class`` and decorator
lines); each piece is parsed by tree-sitter on its own and its definitions are kept by a
digest of the piece's text. A new version of a file then parses only the pieces its change
touched, instead of the whole file (or an incremental parse, which still walks the whole
tree for definitions).

Why the pieces give the whole file's definitions: a piece begins at column 0 on a line that
opens a statement; one that parses without errors ends outside any string, bracket or
continuation (tree-sitter flags an unclosed one at the end of the text), so the next piece
begins at column 0 between two statements of the module, as it does alone. The module is
then the pieces' statements one after the other, and top-level definitions have no scope
around them: each piece's definitions are the file's, lines shifted by the piece's first
line. A piece with errors is joined to the next; when that does not help, or the text holds
carriage returns or NUL bytes (line breaks and text ends the cut does not see), the caller
parses the whole file as before.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

from prdigest.analyzers.symbols.extract import Definition, definitions_from_tree, encode_source
from prdigest.analyzers.symbols.languages import parse
from prdigest.analyzers.symbols.py_pieces import top_level_cuts

# A piece still with errors after this many joins: the whole file is parsed.
_MAX_JOINS = 6


class PieceDefinitions:
    """Definitions of pieces by digest of their text (None: the piece has errors), least
    recently used out."""

    def __init__(self, max_pieces: int) -> None:
        self.max_pieces = max_pieces
        self._pieces: OrderedDict[bytes, tuple[Definition, ...] | None] = OrderedDict()

    def clear(self) -> None:
        self._pieces.clear()

    def definitions(self, text: str, grammar_key: str) -> list[Definition] | None:
        """Every definition of a Python text, as `extract.definitions_from_tree` finds them in
        the whole file's tree; None: read the whole file instead."""
        if "\r" in text or "\0" in text:
            return None
        lines = text.split("\n")
        cuts = [*top_level_cuts(lines), len(lines)]
        found: list[Definition] = []
        at = 0
        while at < len(cuts) - 1:
            for end in range(at + 1, min(at + 1 + _MAX_JOINS, len(cuts))):
                piece = self._piece(lines, cuts[at], cuts[end], grammar_key)
                if piece is not None:
                    found.extend(_shifted(piece, cuts[at], len(found)))
                    at = end
                    break
            else:
                return None
        return found

    def _piece(self, lines: list[str], start: int, end: int, grammar_key: str) -> tuple[Definition, ...] | None:
        source = encode_source("\n".join(lines[start:end]) + ("\n" if end < len(lines) else ""))
        key = hashlib.blake2b(source, digest_size=16, person=grammar_key.encode()[:16]).digest()
        if key in self._pieces:
            self._pieces.move_to_end(key)
            return self._pieces[key]
        tree = parse(grammar_key, source)
        piece = None if tree.root_node.has_error else tuple(definitions_from_tree(tree, grammar_key))
        self._pieces[key] = piece
        while len(self._pieces) > self.max_pieces:
            self._pieces.popitem(last=False)
        return piece


def _shifted(piece: tuple[Definition, ...], first: int, before: int) -> list[Definition]:
    """The piece's definitions as the file's: ``first`` lines further, after ``before`` others."""
    if not first and not before:
        return list(piece)
    return [
        Definition(
            d.name,
            d.kind,
            d.start_line + first,
            d.end_line + first,
            None if d.parent is None else d.parent + before,
        )
        for d in piece
    ]


# Per process, like functools caches: definitions depend on nothing but the text.
PYTHON_DEFINITIONS = PieceDefinitions(max_pieces=8192)
