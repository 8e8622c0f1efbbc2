"""The Python outline finds exactly what walking the whole syntax tree finds.

The outline skips what cannot matter (expressions that cannot hold a platform test, the
expressions of function bodies) and is cached per contents; the reference here is the
plain `ast.walk` reading, so any skipped subtree that did matter shows up as a difference.
"""

from __future__ import annotations

import ast
from dataclasses import fields, replace

import pytest

from prdigest.analyzers.symbols.edits import code_edits
from prdigest.analyzers.symbols.py_outline import IMPORT_ERRORS, FunctionOutline, handler_names, outline_of_tree
from prdigest.analyzers.symbols.py_pieces import PieceCache
from prdigest.models.pullrequest import FileChange

_TRICKY = '''\
"""Module docstring."""
import os, sys, platform
try:
    import ujson as json
except ImportError:
    import json
try:
    from typing import Protocol
    import a.b, c
except (AttributeError, ModuleNotFoundError):
    Protocol = object
if sys.platform == "win32":
    X = 1
elif (sys
      .platform) == "darwin":
    X = 2
Y = 3 if os . name == "nt" else 4
Z = 1 if "sys.plat" "form" else 2
Q = 1 if ("os."  # a comment between
          "name") else 2
W = (lambda a=(1 if platform.system() == "Linux" else 2): a)
V = 1 if "\\x73ys.platform" else 0
U = 1 if \\
    sys.implementation else 2
__version__ = "1.0"
__all__ = ["a", "b"]
LIMIT: int = 5
LIMIT = 6


class A:
    LIMIT = 10

    def f(self, a, /, b, *args, c=1, **kw):
        assert a > 0, "positive"
        try:
            pass
        except (ValueError, KeyError):
            raise RuntimeError("x")
        except:
            raise
        def inner():
            assert False
        return [x for x in (1 if IS_WINDOWS else 2,)]

    @staticmethod
    @functools.lru_cache(maxsize=None)
    async def g():
        if sys.implementation.name == "pypy": raise NotImplementedError
        with open("f") as handle:
            while handle:
                for line in handle:
                    assert line, (yield 1 if os.name else 2)


x = 1; y = 2 if sys.platform else 3
match x:
    case 1 if sys.platform == "linux":
        assert x
    case _:
        raise ValueError
def f(a): pass
def f(b): pass
def h():
    try:
        import fast
    except ImportError:
        fast = None
    if current_platform.is_cuda():
        pass
'''


def _own_nodes(node: ast.AST) -> list[ast.AST]:
    found, stack = [], list(ast.iter_child_nodes(node))
    while stack:
        child = stack.pop()
        found.append(child)
        if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            stack.extend(ast.iter_child_nodes(child))
    return found


def _reference(text: str) -> dict[str, object]:
    """What the whole tree says, read the plain way."""
    import re

    from prdigest.analyzers.symbols import py_outline

    tree = ast.parse(text)
    guards: dict[str, int] = {}
    checks: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and {n for h in node.handlers for n in handler_names(h)} & IMPORT_ERRORS:
            for statement in node.body:
                if isinstance(statement, ast.Import):
                    for alias in statement.names:
                        guards.setdefault(alias.name, node.lineno)
                elif isinstance(statement, ast.ImportFrom) and statement.module:
                    guards.setdefault(statement.module, node.lineno)
        if isinstance(node, ast.If | ast.IfExp):
            test = ast.unparse(node.test)
            if py_outline._PLATFORM_TEST.search(test):
                checks.setdefault(test, node.lineno)
    functions: dict[str, tuple[int, tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {}

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                own = _own_nodes(node)
                functions.setdefault(
                    prefix + node.name,
                    (
                        node.lineno,
                        tuple(ast.unparse(n.test) for n in own if isinstance(n, ast.Assert)),
                        tuple(ast.unparse(n.exc) for n in own if isinstance(n, ast.Raise) and n.exc is not None),
                        tuple(name for n in own if isinstance(n, ast.ExceptHandler) for name in handler_names(n)),
                    ),
                )
                visit(node.body, prefix + node.name + ".")
            elif isinstance(node, ast.ClassDef):
                visit(node.body, prefix + node.name + ".")

    visit(tree.body, "")
    constants: dict[str, tuple[object, int]] = {}
    for n in tree.body:
        if not isinstance(n, ast.Assign | ast.AnnAssign) or n.value is None:
            continue
        try:
            value = ast.literal_eval(n.value)
        except ValueError:
            continue
        for t in n.targets if isinstance(n, ast.Assign) else [n.target]:
            if isinstance(t, ast.Name) and re.match(r"^(?:[A-Z][A-Z0-9_]*|__version__|__all__)$", t.id):
                constants[t.id] = (value, n.lineno)
    return {"guards": guards, "checks": checks, "functions": functions, "constants": constants}


def _outlined(text: str) -> dict[str, object]:
    outline = outline_of_tree(ast.parse(text), text)
    functions = {
        name: (line, fn.asserts, tuple(r for r in fn.raises), fn.handlers)
        for name, (line, fn) in outline.functions().items()
    }
    constants = {name: found for name, found in outline.constants().items() if "." not in name}
    return {"guards": outline.guards(), "checks": outline.checks(), "functions": functions, "constants": constants}


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_the_outline_finds_what_walking_the_whole_tree_finds(newline: str) -> None:
    text = _TRICKY.replace("\n", newline)
    found, expected = _outlined(text), _reference(text)
    # raises: the reference keeps the whole exception expression, the outline its callee
    for name, (line, asserts, _raises, handlers) in expected["functions"].items():  # type: ignore[attr-defined]
        assert found["functions"][name][0::3] == (line, handlers)  # type: ignore[index]
        assert found["functions"][name][1] == asserts  # type: ignore[index]
    assert found["functions"].keys() == expected["functions"].keys()  # type: ignore[attr-defined]
    assert found["guards"] == expected["guards"]
    assert found["checks"] == expected["checks"]
    assert found["constants"] == expected["constants"]
    # the tricky spellings are all found
    checks = found["checks"]
    assert any("os.name" in test for test in checks)  # type: ignore[union-attr]
    assert "'sys.platform'" in checks  # implicitly joined strings
    assert "'os.name'" in checks  # joined across a comment
    assert "'sys.platform'" in checks
    assert any("platform.system()" in test for test in checks)


def test_a_cached_outline_is_the_fresh_one_and_bad_syntax_is_none() -> None:
    cache = PieceCache(max_pieces=8, max_files=2)
    first = cache.outline(_TRICKY)
    assert first is not None
    assert cache.outline(_TRICKY) is first
    assert cache.outline("def broken(:\n") is None
    cache.outline("x = 1\n")
    cache.outline("y = 2\n")  # evicts the oldest
    again = cache.outline(_TRICKY)
    assert again is not None
    assert again is not first
    assert again == first


def _change(before: str, after: str) -> FileChange:
    import difflib

    patch = "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), n=3))
    patch = patch.split("\n", 2)[2]  # without the ---/+++ lines
    return FileChange(
        path="pkg/io.py",
        status="modified",
        additions=patch.count("\n+"),
        deletions=patch.count("\n-"),
        patch=patch,
        content_before=before,
        content_after=after,
    )


def test_code_edits_from_outlines() -> None:
    before = "try:\n    import fcntl\nexcept ImportError:\n    fcntl = None\n\n\ndef lock(path):\n    assert path\n"
    after = "import sys\n\nif sys.platform != 'win32':\n    import fcntl\n\n\ndef lock(path, timeout):\n    pass\n"
    edits = code_edits([_change(before, after)], set())
    kinds = [(e.kind, e.line, dict(e.params)) for e in edits]
    assert kinds == [
        ("import-guard-to-platform-check", 3, {"module": "fcntl", "check": "sys.platform != 'win32'"}),
        ("assertion-removed", 7, {"code": "path"}),
        ("parameter-added", 7, {"function": "lock", "parameter": "timeout"}),
    ]


def test_same_apart_from_line_weighs_every_field_but_the_line() -> None:
    """The code edits skip a function whose outline is the same apart from its line: a field
    added to the outline and left out of the comparison would hide its edits."""
    base = FunctionOutline(
        line=3, params=("a",), defaults=(("a", "1"),), decorators=("d",), asserts=("x",), raises=("E",), handlers=("F",)
    )
    assert base.same_apart_from_line(replace(base, line=9))
    for field in fields(FunctionOutline):
        if field.name != "line":
            changed = replace(base, **{field.name: (*getattr(base, field.name), "other")})
            assert not base.same_apart_from_line(changed), field.name
