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

A long class is read the same way one level down (`PieceDefinitions._class_in_parts`): its
head, then runs of members cut before their ``def``/``class``/decorator lines at four spaces,
each run parsed inside an ``if 1:`` that keeps its columns, so an edit of one method parses
that method's run only.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

import tree_sitter

from prdigest.analyzers.symbols.extract import Definition, definitions_from_tree, encode_source, line_span
from prdigest.analyzers.symbols.languages import parse
from prdigest.analyzers.symbols.py_pieces import CUTS, RecentCuts, TextCuts, keep_recent

# A piece still with errors after this many joins: the whole file is parsed.
_MAX_JOINS = 6
# A class piece of fewer lines is parsed whole (parts cost more than they save there).
_CLASS_PARTS_FROM = 40
# Texts whose cuts a reader of its own keeps (the shared reader's are `py_pieces.CUTS`).
_RECENT_TEXTS = 8
# A part of a class: its definitions (lines of the part's text) and the line its statement
# (the class, or the wrapper) ends at; None: it does not read alone.
_Part = tuple[tuple[Definition, ...], int] | None


class PieceDefinitions:
    """Definitions of pieces by digest of their text (None: the piece has errors), and of
    whole texts by theirs, least recently used out. ``cuts``: the recent texts' cuts, shared
    with the `ast` reader (`py_pieces`; its own when not given)."""

    def __init__(self, max_pieces: int, max_files: int = 256, cuts: RecentCuts | None = None) -> None:
        self.max_pieces = max_pieces
        self.max_files = max_files
        self._cuts = cuts if cuts is not None else RecentCuts(_RECENT_TEXTS)
        self._pieces: OrderedDict[bytes, tuple[Definition, ...] | None] = OrderedDict()
        self._parts: OrderedDict[bytes, _Part] = OrderedDict()
        # Whole texts: the old side of a file is often the same text in many PRs (one base).
        self._files: OrderedDict[bytes, tuple[Definition, ...] | None] = OrderedDict()

    def clear(self) -> None:
        self._pieces.clear()
        self._parts.clear()
        self._files.clear()

    def definitions(self, text: str, grammar_key: str) -> list[Definition] | None:
        """Every definition of a Python text, as `extract.definitions_from_tree` finds them in
        the whole file's tree; None: read the whole file instead."""
        if "\r" in text or "\0" in text:
            return None
        cuts = self._cuts.of(text)
        key = _grammar_digest(cuts.key, grammar_key)
        if key in self._files:
            self._files.move_to_end(key)
            known = self._files[key]
        else:
            found = self._read(cuts, grammar_key)
            known = keep_recent(self._files, key, None if found is None else tuple(found), self.max_files)
        return None if known is None else list(known)

    def _read(self, text: TextCuts, grammar_key: str) -> list[Definition] | None:
        """`definitions` of a text not kept whole: from its pieces."""
        cuts = text.cuts
        found: list[Definition] = []
        at = 0
        while at < len(cuts) - 1:
            for end in range(at + 1, min(at + 1 + _MAX_JOINS, len(cuts))):
                piece = self._piece(text, cuts[at], cuts[end], grammar_key)
                if piece is not None:
                    found.extend(_shifted(piece, cuts[at], len(found)))
                    at = end
                    break
            else:
                return None
        return found

    def _piece(self, cuts: TextCuts, start: int, end: int, grammar_key: str) -> tuple[Definition, ...] | None:
        text, digest = cuts.piece(start, end)
        key = _grammar_digest(digest, grammar_key)
        if key in self._pieces:
            self._pieces.move_to_end(key)
            return self._pieces[key]
        piece: tuple[Definition, ...] | None = None
        if end - start >= _CLASS_PARTS_FROM and cuts.lines[start].startswith("class "):
            piece = self._class_in_parts(cuts, start, end, grammar_key)
        if piece is None:
            tree = parse(grammar_key, encode_source(text))
            piece = None if tree.root_node.has_error else tuple(definitions_from_tree(tree, grammar_key))
        return keep_recent(self._pieces, key, piece, self.max_pieces)

    def _class_in_parts(self, text: TextCuts, start: int, end: int, grammar_key: str) -> tuple[Definition, ...] | None:
        """A piece that is one long class, from its head and runs of members, each part kept by
        its own digest; None: parse it whole.

        Why the parts give the class: the head parses alone as a module of one class whose body
        is at four spaces, and each run parses alone inside the ``if``, which holds all of it; so
        each ends outside any string or bracket and the next part's first line opens a member of
        the class (as `py_pieces.PieceCache._class_in_parts` argues for `ast`). A member's
        innermost enclosing definition is then the class: the wrapper's top-level functions are
        the class's methods, every name is qualified by the class's, and the class ends where
        its last part ends."""
        cuts = text.member_cuts(start, end)
        found: list[Definition] = []
        class_end = 0
        at = 0
        while at < len(cuts) - 1:
            # The head reaches at least to the second cut: a class needs a body to parse.
            for stop in range(at + (2 if at == 0 else 1), min(at + 1 + _MAX_JOINS, len(cuts))):
                part = self._part(text, cuts[at], cuts[stop], grammar_key, head=at == 0)
                if part is not None:
                    shift = cuts[at] - start - (0 if at == 0 else 1)  # the wrapper's line is not the piece's
                    found.extend(_member_definitions(part[0], shift, found[0].name, len(found)) if found else part[0])
                    class_end = part[1] + shift
                    at = stop
                    break
            else:
                return None
        head = found[0]
        found[0] = Definition(head.name, head.kind, head.start_line, class_end, head.parent)
        return tuple(found)

    def _part(self, cuts: TextCuts, start: int, end: int, grammar_key: str, head: bool) -> _Part:
        text, digest = cuts.piece(start, end) if head else cuts.members(start, end)
        key = _grammar_digest(digest, grammar_key)
        if key in self._parts:
            self._parts.move_to_end(key)
            return self._parts[key]
        tree = parse(grammar_key, encode_source(text))
        return keep_recent(self._parts, key, _read_part(tree, grammar_key, head), self.max_pieces)


def _grammar_digest(digest: bytes, grammar_key: str) -> bytes:
    """A key for what ``grammar_key`` reads from the text of ``digest`` (which names the text
    exactly, so its encoding for the parser too)."""
    return hashlib.blake2b(digest, digest_size=16, person=grammar_key.encode()[:16]).digest()


def _read_part(tree: tree_sitter.Tree, grammar_key: str, head: bool) -> _Part:
    """A class's head: a module of exactly one class; a run of members: the wrapper alone,
    without ``else``/``elif`` (those would not be members)."""
    root = tree.root_node
    if root.has_error:
        return None
    statements = [node for node in root.named_children if node.type != "comment"]
    if len(statements) != 1:
        return None
    node = statements[0]
    if head:
        body = node.child_by_field_name("body")
        if node.type != "class_definition" or body is None or body.start_point.column != 4:
            return None
    elif node.type != "if_statement" or node.child_by_field_name("alternative") is not None:
        return None
    definitions = tuple(definitions_from_tree(tree, grammar_key))
    if head and (not definitions or definitions[0].start_line != 1):
        return None
    return definitions, line_span(node)[1]


def _member_definitions(part: tuple[Definition, ...], shift: int, class_name: str, before: int) -> list[Definition]:
    """A run's definitions as the class's (the class first, ``before`` definitions so far)."""
    return [
        Definition(
            f"{class_name}.{d.name}",
            "method" if d.parent is None and d.kind == "function" else d.kind,
            d.start_line + shift,
            d.end_line + shift,
            0 if d.parent is None else d.parent + before,
        )
        for d in part
    ]


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
PYTHON_DEFINITIONS = PieceDefinitions(max_pieces=8192, cuts=CUTS)
