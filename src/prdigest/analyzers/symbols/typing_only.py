"""Which modified Python functions and classes changed only in the type annotations of their
signatures and locals (and docstrings): the interpreter runs them as before, so a report must
not tell their callers of changed behaviour without saying so. Decided by the syntax trees of
both sides, those annotations left out, not by the changed lines' words. A class's annotated
attributes are code (a dataclass's fields, a model's validation read them)."""

from __future__ import annotations

import ast
import copy
import warnings

from prdigest.models.facts import SymbolChange
from prdigest.models.pullrequest import FileChange

MAX_TEXT = 1_000_000  # larger files are not parsed twice for this
_Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


class _WithoutTyping(ast.NodeTransformer):
    """A definition as the interpreter runs it: no docstrings and, unless ``annotations``, no
    annotations."""

    def __init__(self, annotations: bool = False) -> None:
        self._annotations = annotations
        self._functions = 0  # inside a function, `x: int = v` runs as `x = v`

    def visit_arg(self, node: ast.arg) -> ast.arg:
        if not self._annotations:
            node.annotation = None
            node.type_comment = None
        return node

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
        if not self._annotations:
            node.returns = None
            node.type_comment = None
        _drop_docstring(node)
        self._functions += 1
        self.generic_visit(node)
        self._functions -= 1
        return node

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.ClassDef:
        _drop_docstring(node)
        self.generic_visit(node)
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        self.generic_visit(node)
        if self._annotations:
            return node
        if self._functions and node.value is not None:
            # a local's annotation is never evaluated: `x: int = 1` runs as `x = 1`
            return ast.Assign(targets=[node.target], value=node.value, lineno=0)
        if self._functions:
            return ast.Pass()  # `x: int` alone in a function does nothing
        # a class's annotations are read at run time (a dataclass's fields, a model's
        # validation): what they say counts as code
        return node


def _drop_docstring(node: _Definition) -> None:
    body = node.body
    first = body[0] if body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        node.body = body[1:] or [ast.Pass()]


def _definitions(text: str | None, wanted: set[str]) -> dict[str, tuple[str, str]] | None:
    """Each ``wanted`` definition's qualified name (``Pluck.__init__``) and its tree without
    docstrings, with and without its annotations; None when the side is absent, too large or
    does not parse. Only the wanted ones are copied and dumped: a file's other definitions
    cost nothing but the parse."""
    if text is None or len(text) > MAX_TEXT:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences of old code
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    found: dict[str, tuple[str, str]] = {}

    def walk(nodes: list[ast.stmt], prefix: str) -> None:
        for node in nodes:
            if isinstance(node, _Definition):
                name = f"{prefix}{node.name}"
                walk(node.body, f"{name}.")
                if name in wanted and name not in found:  # a later redefinition is not what was read
                    typed = ast.dump(_WithoutTyping(annotations=True).visit(copy.deepcopy(node)))
                    found[name] = (typed, ast.dump(_WithoutTyping().visit(copy.deepcopy(node))))

    walk(tree.body, "")
    return found


def mark_typing_only(change: FileChange, symbols: list[SymbolChange]) -> list[SymbolChange]:
    """`symbols` of one Python file, a modified one marked ``typing_only`` when its tree without
    annotations and docstrings is the same on both sides and its annotations are not (a
    definition the diff only moved changed in nothing; nothing is marked otherwise)."""
    wanted = {s.name for s in symbols if s.change == "modified" and not s.docs_only}
    if not change.path.endswith(".py") or not wanted:
        return symbols
    before = _definitions(change.content_before, wanted)
    after = _definitions(change.content_after, wanted) if before is not None else None
    if before is None or after is None:
        return symbols
    # the same without annotations, and not the same with them: an annotation changed
    same = {
        name
        for name, (typed, bare) in after.items()
        if name in before and before[name][1] == bare and before[name][0] != typed
    }
    return [
        s.model_copy(update={"typing_only": True})
        if s.change == "modified" and not s.docs_only and s.name in same
        else s
        for s in symbols
    ]
