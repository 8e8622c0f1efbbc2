"""Whether a source file's change rewords only the text of its messages.

A message is a string literal that reads as prose (several words with spaces between them):
an error text, a log line, a prompt, a help string. When the two sides of a Python file have
one syntax tree once such literals are blanked (docstrings and version constants aside), the
change alters what the program says, not what it does: no regression test is owed and no
line of it is core logic. Literals are blanked only where a program shows text (call
arguments, raised exceptions, assertion messages); one that is assigned to a name, compared,
used as a key or an index, or handed to a method that matches or looks it up, is kept:
changing it may change behaviour. Other languages are not read this way (nothing is claimed
for them).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterable
from typing import cast

from prdigest.analyzers.symbols.py_pieces import PYTHON, stripped_body
from prdigest.diff import file_diff
from prdigest.models.pullrequest import FileChange, FileStatus

_WORD = re.compile(r"[^\W\d_]{2,}")
_MIN_WORDS = 3  # "connection refused" may be matched on; a sentence is not
_WORD_TOKEN = re.compile(r"[`'\"(\[]*[^\W\d_][\w'’-]*[`'\")\]]*[.,;:!?…]*", re.UNICODE)
_QUERY_VERBS = frozenset({"SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "ALTER", "DROP", "WITH", "PRAGMA"})
_BLANK = "<message>"
_QUOTES = ("'", '"')
_COMMENT = re.compile(r"^\s*#")
_QUOTED = re.compile(r"[rRbBuUfF]{0,2}(?:\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*')")
_ADJACENT = re.compile(r'(?:""){2,}')
# a word next to a space: a piece of prose, perhaps one part of a message written over lines
_PROSE_PART = re.compile(r"[^\W\d_]{2,}\s|\s[^\W\d_]{2,}")
# Methods whose string arguments are data they match, split or look up, not text shown.
_DATA_METHODS = frozenset(
    [
        "startswith",
        "endswith",
        "replace",
        "split",
        "rsplit",
        "partition",
        "rpartition",
        "find",
        "rfind",
        "index",
        "rindex",
        "count",
        "strip",
        "lstrip",
        "rstrip",
        "removeprefix",
        "removesuffix",
        "match",
        "search",
        "fullmatch",
        "sub",
        "subn",
        "findall",
        "finditer",
        "compile",
        "execute",
        "executemany",
        "executescript",
        "get",
        "pop",
        "setdefault",
    ]
)


def rewords_messages_only(change: FileChange) -> bool:
    """The change of one modified Python file alters only prose string literals."""
    if change.status is not FileStatus.MODIFIED or not change.path.endswith((".py", ".pyi")):
        return False
    before, after = change.content_before, change.content_after
    if before is None or after is None or before == after or not _only_quoted_lines(change):
        return False
    # the syntax without docstrings and version constants: the shape the behaviour reading
    # keeps for these texts (a change of docstrings alone rewords no message)
    shape_before, shape_after = PYTHON.shape(before), PYTHON.shape(after)
    if shape_before is None or shape_after is None or shape_before == shape_after:
        return False
    return _same_when_blanked(before, after)


def _only_quoted_lines(change: FileChange) -> bool:
    """Every changed line that is not blank or a comment holds a quote, and the removed and
    the added lines are the same once their quoted text is taken out: a cheap test that spares
    parsing files whose code changed (the syntax trees decide the rest)."""
    lines = file_diff(change).changes()
    meaningful = [line for line in lines if line.text.strip() and not _COMMENT.match(line.text)]
    if not meaningful or not all(any(q in line.text for q in _QUOTES) for line in meaningful):
        return False
    removed = [line.text for line in meaningful if line.kind == "-"]
    added = [line.text for line in meaningful if line.kind == "+"]
    if _skeleton(removed) != _skeleton(added):
        return False
    # a changed literal with no words in it (a version, a key, a format) is no message
    old, new = Counter(_literals(removed)), Counter(_literals(added))
    return all(_PROSE_PART.search(text) for text in (old - new) + (new - old))


def _literals(lines: list[str]) -> list[str]:
    return [match.group(0) for text in lines for match in _QUOTED.finditer(text)]


def _skeleton(lines: Iterable[str]) -> str:
    """The lines' code without their quoted text or spaces; literals written next to each other
    (implicit concatenation, a message reflowed over more lines) read as one."""
    code = _QUOTED.sub('""', "".join("".join(text.split()) for text in lines))
    return _ADJACENT.sub('""', code)


def _same_when_blanked(before: str, after: str) -> bool:
    """Both texts parse and have one syntax tree without docstrings and version constants,
    their messages blanked. Compared statement by statement, from the top: one whose source
    is the same text on both sides has the same tree, so only the others are blanked and
    dumped (a change touches few of a file's statements); a class or function is compared
    by its parts, its body again statement by statement."""
    old, new = _parsed(before), _parsed(after)
    if old is None or new is None:
        return False
    # lines as the parser numbers them: "\n" alone breaks them unless there is a "\r"
    plain = "\r" not in before and "\r" not in after
    sides = (before.split("\n"), after.split("\n")) if plain else None
    return _same_statements(stripped_body(old.body), stripped_body(new.body), sides)


_Sides = tuple[list[str], list[str]] | None
_SCOPES = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _same_statements(old: list[ast.stmt], new: list[ast.stmt], sides: _Sides) -> bool:
    return len(old) == len(new) and all(_same_statement(a, b, sides) for a, b in zip(old, new, strict=True))


def _same_statement(old: ast.stmt, new: ast.stmt, sides: _Sides) -> bool:
    """`ast.dump` of both, stripped and blanked, would be equal (dumps are made only where
    the source differs: the same text of a statement parses to the same tree)."""
    if sides is not None:
        key = _source_key(old, sides[0])
        if key is not None and key == _source_key(new, sides[1]):
            return True
    if type(old) is type(new) and isinstance(old, _SCOPES):
        # field by field, as the dump writes them: equal fields, equal dumps
        for name in old._fields:
            if name == "body":
                if not _same_statements(stripped_body(old.body), stripped_body(new.body), sides):  # type: ignore[attr-defined]
                    return False
            elif _blanked_value(getattr(old, name, None)) != _blanked_value(getattr(new, name, None)):
                return False
        return True
    return _blanked_dump(old) == _blanked_dump(new)


def _blanked_value(value: object) -> object:
    """A field of a class or function other than its body, blanked and dumped (in place)."""
    if isinstance(value, ast.AST):
        return ast.dump(_Blank().visit(value))
    if isinstance(value, list):
        return [_blanked_value(item) for item in value]
    return value


def _parsed(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None


def _source_key(statement: ast.stmt, lines: list[str]) -> tuple[object, ...] | None:
    """The lines a top-level statement stands on (its decorators' included) and where on them
    it starts and ends: equal keys, equal source text (None: a statement made here, no source)."""
    if not hasattr(statement, "lineno") or statement.end_lineno is None or statement.end_col_offset is None:
        return None
    decorators = getattr(statement, "decorator_list", [])
    start = min([statement.lineno, *(d.lineno for d in decorators)])
    placed = tuple((d.lineno - start, d.col_offset) for d in decorators)
    return (
        statement.lineno - start,
        statement.col_offset,
        statement.end_col_offset,
        placed,
        lines[start - 1 : statement.end_lineno],
    )


def _blanked_dump(statement: ast.stmt) -> str:
    """A top-level statement's syntax without docstrings and version constants, its messages
    blanked (the statement is changed in place)."""
    for node in ast.walk(statement):
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            node.body = stripped_body(node.body)
    return ast.dump(_Blank().visit(statement))


def is_message(value: str) -> bool:
    """Reads as a sentence: several words, most of its tokens words, not a query."""
    tokens = value.split()
    words = [t for t in tokens if _WORD_TOKEN.fullmatch(t)]
    return (
        len(_WORD.findall(value)) >= _MIN_WORDS
        and len(words) * 10 >= len(tokens) * 6
        and tokens[0].upper() not in _QUERY_VERBS
    )


class _Blank(ast.NodeTransformer):
    """Blanks message literals where a program shows text: the arguments of a call (not of a
    method that matches, splits or looks up its argument), a raised exception, an assertion's
    message. A module constant, a comparison, a key or an index keeps its literal."""

    def __init__(self) -> None:
        self._shown = False

    def _visit_as(self, node: ast.expr, shown: bool) -> ast.expr:
        before, self._shown = self._shown, shown
        try:
            return cast(ast.expr, self.visit(node))  # every visit here returns an expression
        finally:
            self._shown = before

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if self._shown and isinstance(node.value, str) and is_message(node.value):
            return ast.Constant(value=_BLANK)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        shown = not (isinstance(node.func, ast.Attribute) and node.func.attr in _DATA_METHODS)
        node.func = self._visit_as(node.func, False)
        node.args = [self._visit_as(a, shown) for a in node.args]
        for keyword in node.keywords:
            keyword.value = self._visit_as(keyword.value, shown)
        return node

    def visit_Raise(self, node: ast.Raise) -> ast.AST:
        if node.exc is not None:
            node.exc = self._visit_as(node.exc, True)
        return node

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        node.test = self._visit_as(node.test, False)
        if node.msg is not None:
            node.msg = self._visit_as(node.msg, True)
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        return node  # a literal compared with is behaviour

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        return node

    def visit_Dict(self, node: ast.Dict) -> ast.AST:
        node.values = [self._visit_as(v, self._shown) for v in node.values]
        return node  # keys are left as they are
