"""Whether a PR changes what the code does, as opposed to how it reads.

A regression test is only owed by a change in behaviour: not by a revert (it restores code
that was already tested), a version bump, a typo fix, or edits to comments, docstrings and
whitespace. Python files whose both sides parse are compared as syntax trees without
docstrings and version constants; other files line by line, comments and blank lines aside.
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections import OrderedDict

from prdigest.analyzers.symbols.py_outline import OUTLINES, parse_module
from prdigest.diff import file_diff
from prdigest.models.pullrequest import FileChange, PullRequest

# Comment lines of the common languages; `#include` / `#define` (C preprocessor) are code.
_COMMENT = re.compile(
    r"^\s*(?:#(?!\s*(?:include|define|undef|if|ifdef|ifndef|elif|else|endif|pragma|import)\b)|//|/\*|\*(?:\s|/|$)|--\s|<!--)"
)
_VERSION_LINE = re.compile(
    r"""^\s*(?:__version__|VERSION|version|__VERSION__|_version)\s*[:=]\s*(?:\w+\s*=\s*)?["'][^"']*["']\s*,?\s*$"""
)
_REVERT_TITLE = re.compile(r"^\s*(?:\[[^\]]*\]\s*)*revert\b", re.IGNORECASE)
_REVERT_BODY = re.compile(r"\bThis reverts commit [0-9a-f]{7,40}\b")
_TYPO_TITLE = re.compile(r"\b(?:typos?|spelling|misspell\w*|grammar)\b", re.IGNORECASE)
_VERSION_NAMES = frozenset({"__version__", "VERSION", "version", "__VERSION__", "_version"})


def is_revert(pr: PullRequest) -> bool:
    """The title says "Revert …" or the body carries git's "This reverts commit <sha>"."""
    return bool(_REVERT_TITLE.match(pr.title) or _REVERT_BODY.search(pr.body))


def is_typo_fix(pr: PullRequest) -> bool:
    return _TYPO_TITLE.search(pr.title) is not None


class _Strip(ast.NodeTransformer):
    """Docstrings and version constants out: what is left is what the code does."""

    def _body(self, body: list[ast.stmt]) -> list[ast.stmt]:
        first = body[0] if body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            body = body[1:]
        return [s for s in body if not _is_version_assignment(s)]

    def visit_Module(self, node: ast.Module) -> ast.AST:
        node.body = self._body(node.body)
        self.generic_visit(node)
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        node.body = self._body(node.body) or [ast.Pass()]
        self.generic_visit(node)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.body = self._body(node.body) or [ast.Pass()]
        self.generic_visit(node)
        return node

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        node.body = self._body(node.body) or [ast.Pass()]
        self.generic_visit(node)
        return node


def _is_version_assignment(statement: ast.stmt) -> bool:
    targets: list[ast.expr] = []
    if isinstance(statement, ast.Assign):
        targets = statement.targets
    elif isinstance(statement, ast.AnnAssign):
        targets = [statement.target]
    return any(isinstance(t, ast.Name) and t.id in _VERSION_NAMES for t in targets)


def _python_shape(text: str) -> bytes | None:
    """A digest of the tree without docstrings and version constants (None: it does not parse)."""
    key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    if key in _SHAPES:
        _SHAPES.move_to_end(key)
        return _SHAPES[key]
    tree = parse_module(text)
    # The code-edits analyzer outlines the same contents: from this parse, before the strip.
    OUTLINES.remember(text, tree)
    shape = None
    if tree is not None:
        shape = hashlib.blake2b(ast.dump(_Strip().visit(tree)).encode("utf-8", "surrogatepass")).digest()
    _SHAPES[key] = shape
    while len(_SHAPES) > _MAX_SHAPES:
        _SHAPES.popitem(last=False)
    return shape


# Shapes by digest of the contents, per process (like functools caches): oldest first, one
# PR's new file is the next one's old file, so each version is parsed once.
_SHAPES: OrderedDict[bytes, bytes | None] = OrderedDict()
_MAX_SHAPES = 256


def file_changes_behaviour(change: FileChange) -> bool:
    """Whether one source file's change can alter what it does."""
    if change.path.endswith((".py", ".pyi")) and change.content_before is not None and change.content_after is not None:
        before, after = _python_shape(change.content_before), _python_shape(change.content_after)
        if before is not None and after is not None:
            return before != after
    if not change.patch:
        return True  # nothing shows what changed: it may be anything
    lines = file_diff(change).changes()
    if not lines:
        return change.binary or change.status in ("added", "removed")
    meaningful = [
        line
        for line in lines
        if line.text.strip() and not _COMMENT.match(line.text) and not _VERSION_LINE.match(line.text)
    ]
    removed = sorted("".join(line.text.split()) for line in meaningful if line.kind == "-")
    added = sorted("".join(line.text.split()) for line in meaningful if line.kind == "+")
    return removed != added
