"""A Python file's outline and behaviour shape, parsed piece by piece, each piece once.

A file is cut before the top-level ``def``, ``class`` and decorator lines, and each piece
is parsed on its own; what is read from a piece (its outline, the digests of its statements
without docstrings and version constants) is kept by a digest of the piece's text. A new
version of a file then parses only the pieces its change touched.

Why the pieces give the file's own results: each piece begins at column 0 on a ``def``,
``class`` or ``@`` line, which cannot continue the statement before it; a piece that parses
alone ends outside any string, bracket or continuation, so the whole file tokenizes as the
pieces do, one after the other, and its statements are the pieces' statements (lines
shifted by the piece's first line). A piece that does not parse alone (a cut inside a
string, a decorator cut from its function) is joined to the next one; when that does not
help, or the text holds what the cut cannot see (carriage returns, NUL bytes, the
``barry_as_FLUFL`` future), the whole file is parsed instead, as before.
"""

from __future__ import annotations

import ast
import hashlib
import io
import re
import tokenize
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar, cast

from prdigest.analyzers.recent import RecentByIdentity
from prdigest.analyzers.symbols.py_outline import (
    FunctionOutline,
    GroupOutline,
    Outline,
    member_outline,
    outline_of_tree,
    parse_module,
    piece_outline,
)
from prdigest.analyzers.version_names import VERSION_NAMES

_STARTS = ("def ", "class ", "async def ", "@")
# A piece that still does not parse after this many joins: the whole file is parsed.
_MAX_JOINS = 6


# --- what behaviour reads: statements without docstrings and version constants ------------


def is_docstring(statement: ast.stmt | None) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def is_version_assignment(statement: ast.stmt) -> bool:
    targets: list[ast.expr] = []
    if isinstance(statement, ast.Assign):
        targets = statement.targets
    elif isinstance(statement, ast.AnnAssign):
        targets = [statement.target]
    return any(isinstance(t, ast.Name) and t.id in VERSION_NAMES for t in targets)


# (is a docstring, is a version assignment, digest of its dump without docstrings and version constants)
_Statement = tuple[bool, bool, bytes]


def _statements(body: list[ast.stmt]) -> tuple[_Statement, ...]:
    """Each top-level statement, with a digest of its syntax without docstrings and version
    constants (the tree is left as it is)."""
    return tuple((is_docstring(s), is_version_assignment(s), _top_digest(s)) for s in body)


def _top_digest(statement: ast.stmt) -> bytes:
    """A top-level class by its head and its members' digests (a class read in parts gives
    the same, `_class_digest`); any other statement by its stripped dump."""
    if isinstance(statement, ast.ClassDef):
        members = [(is_docstring(s), is_version_assignment(s), _dump_digest(s)) for s in statement.body]
        return _class_digest(_head_digest(statement), members)
    return _dump_digest(statement)


def _dump_digest(node: ast.AST) -> bytes:
    return hashlib.blake2b(_stripped_dump(node).encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _head_digest(node: ast.ClassDef) -> bytes:
    """The class without its body: name, bases, keywords, decorators."""
    head = ast.ClassDef(
        name=node.name, bases=node.bases, keywords=node.keywords, body=[], decorator_list=node.decorator_list
    )
    return _dump_digest(head)


def _class_digest(head: bytes, members: list[_Statement]) -> bytes:
    """Equal for two classes exactly when their stripped dumps are: equal heads, and the same
    members after `stripped_body` (a leading docstring and version constants out, ``pass``
    for nothing), each by the digest of its stripped dump (16 bytes each: joined unambiguously)."""
    kept = [digest for i, (doc, version, digest) in enumerate(members) if not (i == 0 and doc) and not version]
    return hashlib.blake2b(head + b"".join(kept or [_PASS_DIGEST]), digest_size=16).digest()


_STRIPPED = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
# Per node type: "Name(" (or "Name()" without fields), its fields, whether its body is stripped.
_DUMP_SPECS: dict[type, tuple[str, tuple[str, ...], bool]] = {}
# The commonest leaves, written directly (their fields are always these, in this order).
_NAME, _CONSTANT = ast.Name, ast.Constant
_CONTEXTS = {ast.Load: "Load()", ast.Store: "Store()", ast.Del: "Del()"}


def _stripped_dump(node: ast.AST) -> str:
    """A text of the node's syntax, positions aside, with the docstrings and version constants
    of every class and function body left out (an empty body read as ``pass``).

    Only ever compared with itself: two statements give one text exactly when their
    `ast.dump` after `_Strip` is one, each node written as its class and its fields in order
    (values by ``repr``, as `ast.dump` does), without the field names `ast.dump` repeats."""
    parts: list[str] = []
    _dump_into(node, parts.append)
    return "".join(parts)


def _dump_into(node: ast.AST, append: Callable[[str], None]) -> None:
    """`_stripped_dump` of the node, in parts, onto one list (each node joining its own text
    would copy a deep node's text once per level above it)."""
    kind = type(node)
    if kind is _NAME:
        leaf = cast(ast.Name, node)
        append("Name(" + repr(leaf.id) + "," + _CONTEXTS[type(leaf.ctx)] + ",)")
        return
    if kind is _CONSTANT:
        constant = cast(ast.Constant, node)
        append("Constant(" + repr(constant.value) + "," + repr(constant.kind) + ",)")
        return
    spec = _DUMP_SPECS.get(kind)
    if spec is None:
        fields = tuple(kind._fields)
        head = kind.__name__ + ("(" if fields else "()")
        spec = _DUMP_SPECS[kind] = (head, fields, issubclass(kind, _STRIPPED))
    head, fields, stripped = spec
    append(head)
    if not fields:
        return
    for name in fields:
        value = getattr(node, name, _ABSENT)
        if stripped and name == "body":
            value = stripped_body(value)
        if isinstance(value, ast.AST):
            _dump_into(value, append)
            append(",")
        elif isinstance(value, list):
            append("[")
            for item in value:
                if isinstance(item, ast.AST):
                    _dump_into(item, append)
                else:
                    append(repr(item))
                append(",")
            append("],")
        else:
            append(repr(value))
            append(",")
    append(")")


def stripped_body(body: list[ast.stmt]) -> list[ast.stmt]:
    """`_Strip`'s body: the docstring and the version constants out, ``pass`` if nothing is left."""
    if body and is_docstring(body[0]):
        body = body[1:]
    return [s for s in body if not is_version_assignment(s)] or [ast.Pass()]


# A field the node lacks (`ast.dump` leaves it out): a text no ``repr`` gives.
_ABSENT = type("_Absent", (), {"__repr__": lambda _self: "<absent>"})()
_PASS_DIGEST = hashlib.blake2b(_stripped_dump(ast.Pass()).encode(), digest_size=16).digest()


def _shape(statements: list[_Statement]) -> bytes:
    """The module's shape: its statements but a leading docstring and the version constants.
    Two modules have one shape when their dumps (so stripped) are equal."""
    kept = [digest for i, (doc, version, digest) in enumerate(statements) if not (i == 0 and doc) and not version]
    return hashlib.blake2b(b"".join(kept), digest_size=16).digest()


# --- pieces -------------------------------------------------------------------------------


@dataclass
class _Piece:
    """What is read from one piece's text (nothing when it does not parse alone)."""

    outline: GroupOutline | None = None
    statements: tuple[_Statement, ...] | None = None
    quiet: frozenset[int] | None = None  # 1-based lines of the piece
    parses: bool = True
    class_name: str | None = None  # of a class's head read alone (`PieceCache._class_in_parts`)


def top_level_cuts(lines: list[str]) -> list[int]:
    """Indexes of the lines a piece starts at: 0, then top-level ``def``/``class`` lines and
    the first of a run of decorators (not the ``def`` they decorate)."""
    cuts = [0]
    after_decorator = False
    for index, line in enumerate(lines):
        if not line or line[0] in " \t\f#)]}":
            continue  # indented, blank, a comment, the end of a bracket: the code before goes on
        starts = line.startswith(_STARTS)
        if starts and index and not after_decorator:
            cuts.append(index)
        after_decorator = line.startswith("@")
    return cuts


class TextCuts:
    """One text's digest, its lines, where its pieces start, and the texts of its pieces and
    class parts with their digests, each made on first ask. The `ast` reader here and the
    tree-sitter reader (`py_definitions`) both read a new text piece by piece, cut at the
    same lines: cutting and digesting once serves both."""

    __slots__ = ("_cuts", "_lines", "_members", "_texts", "key", "quiet", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.key = _digest(text)
        self._lines: list[str] | None = None
        self._cuts: list[int] | None = None
        self._texts: dict[tuple[int, int, str], tuple[str, bytes]] = {}
        self._members: dict[tuple[int, int], list[int]] = {}
        # its quiet lines once assembled (`PieceCache.quiet_lines`), or `_UNREAD`
        self.quiet: object = _UNREAD

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.text.split("\n")
        return self._lines

    @property
    def cuts(self) -> list[int]:
        """`top_level_cuts`, then the number of lines (where the last piece ends)."""
        if self._cuts is None:
            self._cuts = [*top_level_cuts(self.lines), len(self.lines)]
        return self._cuts

    def member_cuts(self, start: int, end: int) -> list[int]:
        """`member_cuts` of the class on lines ``start``..``end``, then ``end``."""
        found = self._members.get((start, end))
        if found is None:
            found = self._members[(start, end)] = [*member_cuts(self.lines, start, end), end]
        return found

    def piece(self, start: int, end: int) -> tuple[str, bytes]:
        """The text of lines ``start``..``end`` (a piece, or a class's head) and its digest."""
        return self._joined(start, end, "")

    def members(self, start: int, end: int) -> tuple[str, bytes]:
        """A run of a class's members, inside the wrapper that keeps their columns, and its digest."""
        return self._joined(start, end, _WRAPPER)

    def _joined(self, start: int, end: int, prefix: str) -> tuple[str, bytes]:
        found = self._texts.get((start, end, prefix))
        if found is None:
            lines = self.lines
            text = prefix + "\n".join(lines[start:end]) + ("\n" if end < len(lines) else "")
            found = self._texts[(start, end, prefix)] = (text, _digest(text))
        return found


class RecentCuts(RecentByIdentity[str, TextCuts]):
    """The `TextCuts` of the last few text objects, found again by identity (one PR's texts are
    asked for definitions, outline, shape and quiet lines in turn, by different analyzers)."""

    def of(self, text: str) -> TextCuts:
        return self.get(text, TextCuts)


class PieceCache:
    """Pieces by digest of their text, and whole outlines and shapes by digest of the file's
    text, least recently used out. ``cuts``: the recent texts' cuts, shared with the
    tree-sitter reader (its own when not given)."""

    def __init__(self, max_pieces: int, max_files: int, cuts: RecentCuts | None = None) -> None:
        self.max_pieces = max_pieces
        self.max_files = max_files
        self._pieces: OrderedDict[bytes, _Piece] = OrderedDict()
        self._outlines: OrderedDict[bytes, Outline | None] = OrderedDict()
        self._shapes: OrderedDict[bytes, bytes | None] = OrderedDict()
        # The pieces of the last few files: one PR asks a file's outline, shape and quiet lines
        # in turn; this spares cutting and digesting it again (few: they hold pieces alive).
        self._recent: OrderedDict[bytes, list[tuple[int, _Piece]] | None] = OrderedDict()
        self._cuts = cuts if cuts is not None else RecentCuts(_RECENT_TEXTS)
        # Each text's pieces by their digests (None: parsed whole), to find them again uncut.
        self._layouts: OrderedDict[bytes, tuple[tuple[int, bytes], ...] | None] = OrderedDict()

    def _key(self, text: str) -> bytes:
        """The text's digest, once per text object of the last few (one PR asks a file's
        outline, shape and quiet lines in turn)."""
        return self._cuts.of(text).key

    def outline(self, text: str) -> Outline | None:
        """The outline of the file's contents (None: they do not parse)."""
        key = self._key(text)
        if key in self._outlines:
            self._outlines.move_to_end(key)
            return self._outlines[key]
        outline = self._outline(text, key)
        keep_recent(self._outlines, key, outline, self.max_files)
        return outline

    def shape(self, text: str) -> bytes | None:
        """A digest of the syntax tree without docstrings and version constants (None: it does not parse)."""
        key = self._key(text)
        if key in self._shapes:
            self._shapes.move_to_end(key)
            return self._shapes[key]
        shape = self._shape(text, key)
        keep_recent(self._shapes, key, shape, self.max_files)
        return shape

    def quiet_lines(self, text: str) -> frozenset[int] | None:
        """Line numbers (1-based) of the docstrings, comment-only and blank lines of the file's
        contents (None: they do not parse). Assembled from the pieces and kept only with the
        recent texts' cuts (one PR's analyzers ask a text in turn): whole-file sets of line
        numbers kept per file would cost more memory than their assembly costs."""
        cuts = self._cuts.of(text)
        if cuts.quiet is _UNREAD:
            cuts.quiet = self._quiet_lines(text)
        return cast(frozenset[int] | None, cuts.quiet)

    def _quiet_lines(self, text: str) -> frozenset[int] | None:
        # str.splitlines (which numbers the blank lines) breaks at more than "\n": then whole.
        pieces = None if any(c in text for c in _OTHER_LINE_BREAKS) else self._parts(text, self._key(text))
        if pieces is None:
            tree = parse_module(text)
            return quiet_of(tree, text) if tree is not None else None
        found: set[int] = set()
        for first, piece in pieces:
            assert piece.quiet is not None
            found.update(first + number for number in piece.quiet)
        return frozenset(found)

    def _outline(self, text: str, key: bytes) -> Outline | None:
        pieces = self._parts(text, key)
        if pieces is None:
            tree = parse_module(text)
            return outline_of_tree(tree, text) if tree is not None else None
        groups = []
        for first, piece in pieces:
            assert piece.outline is not None
            if piece.outline != _EMPTY:
                groups.append((first, piece.outline))
        return Outline(groups=tuple(groups))

    def _shape(self, text: str, key: bytes) -> bytes | None:
        pieces = self._parts(text, key)
        if pieces is None:
            tree = parse_module(text)
            return _shape(list(_statements(tree.body))) if tree is not None else None
        statements: list[_Statement] = []
        for _first, piece in pieces:
            assert piece.statements is not None
            statements.extend(piece.statements)
        return _shape(statements)

    def _parts(self, text: str, key: bytes) -> list[tuple[int, _Piece]] | None:
        """(first line, piece) of each piece; None: parse the whole file. ``key``: the text's digest."""
        if key in self._recent:
            self._recent.move_to_end(key)
            return self._recent[key]
        return keep_recent(self._recent, key, self._laid_out(text, key), _RECENT_FILES)

    def _laid_out(self, text: str, key: bytes) -> list[tuple[int, _Piece]] | None:
        """`_cut`, or the pieces a text cut before was cut into when they are all still kept
        (a file's old side is often one text in many PRs: then nothing is cut or digested)."""
        if key in self._layouts:
            self._layouts.move_to_end(key)
            layout = self._layouts[key]
            if layout is None:
                return None
            pieces: list[tuple[int, _Piece]] = []
            for first, piece_key in layout:
                piece = self._pieces.get(piece_key)
                if piece is None:
                    break  # let go since: cut again
                self._pieces.move_to_end(piece_key)
                pieces.append((first, piece))
            else:
                return pieces
        cut = self._cut(self._cuts.of(text))
        keep_recent(
            self._layouts, key, None if cut is None else tuple((first, k) for first, k, _p in cut), self.max_files
        )
        return None if cut is None else [(first, piece) for first, _key, piece in cut]

    def _cut(self, text: TextCuts) -> list[tuple[int, bytes, _Piece]] | None:
        """(first line, digest, piece) of each piece; None: parse the whole file."""
        if "\r" in text.text or "\0" in text.text or "barry_as_FLUFL" in text.text:
            return None
        cuts = text.cuts
        found: list[tuple[int, bytes, _Piece]] = []
        at = 0
        while at < len(cuts) - 1:
            for end in range(at + 1, min(at + 1 + _MAX_JOINS, len(cuts))):
                key, piece = self._piece(text, cuts[at], cuts[end])
                if piece is not None:
                    found.append((cuts[at], key, piece))
                    at = end
                    break
            else:
                return None
        return found

    def _piece(self, cuts: TextCuts, start: int, end: int) -> tuple[bytes, _Piece | None]:
        text, key = cuts.piece(start, end)
        piece = self._pieces.get(key)
        if piece is None:
            read = None
            if end - start >= _CLASS_PARTS_FROM and cuts.lines[start].startswith("class "):
                read = self._class_in_parts(cuts, start, end)
            piece = keep_recent(self._pieces, key, read or _read_piece(text), self.max_pieces)
        else:
            self._pieces.move_to_end(key)
        return key, piece if piece.parses else None

    def _part(self, cuts: TextCuts, start: int, end: int, head: bool) -> _Piece | None:
        """A class's head (from its ``class`` line) or a run of its members, read alone (members
        inside an ``if 1:``, which keeps their columns); None when it does not parse so."""
        text, key = cuts.piece(start, end) if head else cuts.members(start, end)
        part = self._pieces.get(key)
        if part is None:
            part = keep_recent(self._pieces, key, _read_part(text, head), self.max_pieces)
        else:
            self._pieces.move_to_end(key)
        return part if part.parses else None

    def _class_in_parts(self, text: TextCuts, start: int, end: int) -> _Piece | None:
        """A piece that is one long class, read as its head and runs of members cut before
        their ``def``/``class``/decorator lines at four spaces, each part kept by its own
        digest: an edit of one method re-reads that method only. None: read it whole.

        Why the parts give the class: the head parses alone as a module of one class whose
        body is at four spaces, and each run parses alone inside the ``if``, which holds all of
        it; so each ends outside any string or bracket and the next part's first line opens a
        statement at four spaces, a member of the class (as at the top, `PieceCache._parts`)."""
        cuts = text.member_cuts(start, end)
        parts: list[tuple[int, _Piece]] = []
        at = 0
        while at < len(cuts) - 1:
            # The head reaches at least to the second cut: a class needs a body to parse.
            for stop in range(at + (2 if at == 0 else 1), min(at + 1 + _MAX_JOINS, len(cuts))):
                part = self._part(text, cuts[at], cuts[stop], head=at == 0)
                if part is not None:
                    parts.append((cuts[at] - start, part))
                    at = stop
                    break
            else:
                return None
        return _joined_class(parts)


def _read_piece(text: str) -> _Piece:
    """Everything read from a piece, from one parse (each Python file version is asked for
    its outline, its shape and, by the verdict, its quiet lines: parsing once serves all)."""
    tree = parse_module(text)
    if tree is None:
        return _Piece(parses=False)  # remembered too: the next ask joins it without parsing
    outline = piece_outline(tree, text)
    quiet = quiet_of(tree, text)  # docstrings are read before the strip below removes them
    return _Piece(outline=outline, statements=_statements(tree.body), quiet=quiet)


_RECENT_FILES = 8
# Not read yet (None is an answer: the text does not parse).
_UNREAD = object()
# Texts whose cuts are kept: all of a PR's Python texts, asked by several analyzers in turn.
_RECENT_TEXTS = 32
# A class piece of fewer lines is read whole (parts cost more than they save there).
_CLASS_PARTS_FROM = 40
_WRAPPER = "if 1:\n"
_MEMBER_STARTS = tuple("    " + start for start in _STARTS)


def member_cuts(lines: list[str], start: int, end: int) -> list[int]:
    """Indexes of the lines a class's parts start at: its ``class`` line, then lines at four
    spaces opening a ``def``/``class`` or a run of decorators (as `top_level_cuts` at the top)."""
    cuts = [start]
    after_decorator = False
    for index in range(start + 1, end):
        line = lines[index]
        if not line.startswith("    ") or line[4:5] in _NOT_A_MEMBER:
            continue  # deeper, blank, a comment or the end of a bracket, or not at four spaces
        if line.startswith(_MEMBER_STARTS) and not after_decorator:
            cuts.append(index)
        after_decorator = line.startswith("    @")
    return cuts


_NOT_A_MEMBER = frozenset({"", " ", "\t", "\f", "#", ")", "]", "}"})


def _read_part(text: str, head: bool) -> _Piece:
    """A class's head: a module of exactly one class, its body at four spaces (then its
    outline, quiet lines and members as a piece's); a run of members: the wrapper alone
    (its outline without the class's name, its quiet lines, its members' statements)."""
    tree = parse_module(text)
    if tree is None or len(tree.body) != 1:
        return _Piece(parses=False)
    node = tree.body[0]
    if head:
        if not isinstance(node, ast.ClassDef) or node.body[0].col_offset != 4:
            return _Piece(parses=False)
        outline = piece_outline(tree, text)
        quiet = quiet_of(tree, text)
        members = [(is_docstring(s), is_version_assignment(s), _dump_digest(s)) for s in node.body]
        statements = ((False, False, _head_digest(node)), *members)
        return _Piece(outline=outline, statements=statements, quiet=quiet, class_name=node.name)
    if not isinstance(node, ast.If) or node.orelse:
        return _Piece(parses=False)  # an ``else``/``elif`` at the top joined the wrapper: not members
    outline = member_outline(tree, text)
    quiet = quiet_of(tree, text)
    members = [(is_docstring(s), is_version_assignment(s), _dump_digest(s)) for s in node.body]
    return _Piece(outline=outline, statements=tuple(members), quiet=quiet)


def _joined_class(parts: list[tuple[int, _Piece]]) -> _Piece:
    """The class piece from its parts ((first line within the piece, part), the head first):
    what `_read_piece` reads from the whole class."""
    (_zero, head), members = parts[0], parts[1:]
    assert head.outline is not None
    assert head.statements is not None
    assert head.quiet is not None
    functions: dict[str, FunctionOutline] = dict(head.outline.functions)  # (named with the class's name)
    constants: dict[str, tuple[object, int]] = {name: (value, line) for name, value, line in head.outline.constants}
    seen: list[tuple[int, int, int, str, int]] = [(d, 0, o, k, line) for d, o, k, line in head.outline.guards]
    checked: list[tuple[int, int, int, str, int]] = [(d, 0, o, k, line) for d, o, k, line in head.outline.checks]
    quiet = set(head.quiet)
    statements = list(head.statements[1:])
    assert head.class_name is not None
    prefix = head.class_name + "."
    for number, (first, part) in enumerate(members, start=1):
        assert part.outline is not None
        assert part.statements is not None
        assert part.quiet is not None
        shift = first - 1  # a line of the wrapped text -> a line of the piece (both 1-based)
        for name, fn in part.outline.functions:
            functions.setdefault(prefix + name, replace(fn, line=fn.line + shift))
        for name, value, line in part.outline.constants:
            constants[prefix + name] = (value, line + shift)
        seen.extend((d, number, o, k, line + shift) for d, o, k, line in part.outline.guards)
        checked.extend((d, number, o, k, line + shift) for d, o, k, line in part.outline.checks)
        quiet.update(line + shift for line in part.quiet)
        statements.extend(part.statements)
    outline = GroupOutline(
        functions=tuple(functions.items()),
        constants=tuple((name, value, line) for name, (value, line) in constants.items()),
        guards=_renumbered(seen),
        checks=_renumbered(checked),
    )
    digest = _class_digest(head.statements[0][2], statements)
    return _Piece(outline=outline, statements=((False, False, digest),), quiet=frozenset(quiet))


def _renumbered(items: list[tuple[int, int, int, str, int]]) -> tuple[tuple[int, int, str, int], ...]:
    """(depth, part, order, key, line) -> (depth, order, key, line), ordered as `ast.walk` over
    the whole class would meet them: by depth, then part, then order within the part."""
    items.sort(key=lambda item: item[:3])
    return tuple((depth, order, key, line) for order, (depth, _part, _o, key, line) in enumerate(items))


# Line breaks of str.splitlines besides "\n" and "\r" (a text with "\r" is parsed whole anyway).
_OTHER_LINE_BREAKS = ("\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def quiet_of(tree: ast.Module, text: str) -> frozenset[int]:
    """Line numbers (1-based) of the docstrings, comment-only and blank lines of a parsed text.
    Read piece by piece, a piece after the first starts with a definition, so only the first
    piece's first statement can be the module's docstring, as in the whole file."""
    quiet = set(_docstring_lines(tree)) | _comment_lines(text)
    quiet.update(number for number, line in enumerate(text.splitlines(), start=1) if not line.strip())
    return frozenset(quiet)


def _docstring_lines(tree: ast.Module) -> list[int]:
    lines: list[int] = []
    # Only statements are walked: a class or function (whose body may open with a docstring)
    # is a statement, and only ever inside the bodies of statements, handlers and cases.
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, _DOCUMENTED) and node.body:
            first = node.body[0]
            if is_docstring(first):
                lines.extend(range(first.lineno, (first.end_lineno or first.lineno) + 1))
        for name in _BLOCK_FIELDS:
            block = getattr(node, name, None)
            if block:
                stack.extend(block)
    return lines


_DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
# The fields that hold statements, handlers (``try``) or cases (``match``).
_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def _comment_lines(text: str) -> set[int]:
    """Lines holding only a comment (a comment after code leaves the line code).

    Read by finding the strings and comments alone, as the tokenizer meets them: in a text
    that parses, outside strings a quote always opens a string and ``#`` a comment, and a
    string ends at the first quote like its opening one not escaped by a backslash (raw or
    not, 3.11 f-strings too). A line holds only a comment when its first character past
    blanks opens one. Texts with characters the tokenizer treats apart are tokenized."""
    if any(c in text for c in _TOKENIZE_APART):
        return _tokenized_comment_lines(text)
    found: set[int] = set()
    line = 1
    at = 0  # where `line` was last counted up to
    search = _OPENING.search
    while True:
        opening = search(text, at)
        if opening is None:
            return found
        start = opening.start()
        token = opening.group()
        line += text.count("\n", at, start)
        if token == "#":
            line_start = text.rfind("\n", 0, start) + 1
            if not text[line_start:start].strip(" \t"):
                found.add(line)
            end = text.find("\n", start)
            at = len(text) if end < 0 else end
            continue
        closing = _CLOSINGS[token].match(text, opening.end())
        if closing is None:
            return _tokenized_comment_lines(text)  # not closed: left to the tokenizer
        at = closing.end()
        line += text.count("\n", start, at)


# The tokenizer's own line breaks and blanks besides "\n", " " and "\t", and NUL.
_TOKENIZE_APART = ("\r", "\f", "\v", "\0")
_OPENING = re.compile(r"#|\"\"\"|'''|\"|'")
_CLOSINGS = {
    '"""': re.compile(r'[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""', re.DOTALL),
    "'''": re.compile(r"[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''", re.DOTALL),
    '"': re.compile(r'[^\n"\\]*(?:\\.[^\n"\\]*)*"', re.DOTALL),
    "'": re.compile(r"[^\n'\\]*(?:\\.[^\n'\\]*)*'", re.DOTALL),
}


def _tokenized_comment_lines(text: str) -> set[int]:
    found: set[int] = set()
    code: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                found.add(token.start[0])
            elif token.type not in _LAYOUT_TOKENS:
                code.update(range(token.start[0], token.end[0] + 1))
    except (tokenize.TokenError, SyntaxError, ValueError):
        return set()
    return found - code


_LAYOUT_TOKENS = frozenset(
    {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER, tokenize.ENCODING}
)


_EMPTY = GroupOutline(functions=(), constants=(), guards=(), checks=())


_T = TypeVar("_T")


def keep_recent(entries: OrderedDict[bytes, _T], key: bytes, value: _T, limit: int) -> _T:
    """``value``, kept under ``key`` among the ``limit`` most recent (the oldest go first)."""
    entries[key] = value
    while len(entries) > limit:
        entries.popitem(last=False)
    return value


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


# Per process, like functools caches: what is read depends on nothing but the text.
# The recent texts' cuts, shared by the `ast` reader and the tree-sitter one (`py_definitions`).
CUTS = RecentCuts(_RECENT_TEXTS)
PYTHON = PieceCache(max_pieces=4096, max_files=512, cuts=CUTS)
