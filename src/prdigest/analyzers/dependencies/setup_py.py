"""Requirements declared in a ``setup.py``, read with `ast` so each one keeps its context.

The context is what the reader needs to tell specifiers apart: the ``setup()`` keyword that
receives it (``install_requires``, ``extras_require`` key, ``setup_requires``,
``tests_require``), directly or through a variable, and the build switch that chooses it
(``if IS_RELEASE: ... else: ...``, ``"a" if RELEASE else "b"``). Only string constants in a
list/tuple/set, a dict value, an assignment or a keyword value are read: a string passed to a
call (``req.startswith("pkg")``) or compared (``"x" in req``) is not a declaration.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from prdigest.analyzers.dependencies.requirement_lines import ParsedRequirement, parse_requirement_text

# setup() keywords that take requirements
_REQUIREMENT_KEYWORDS = frozenset({"install_requires", "extras_require", "setup_requires", "tests_require"})
_MAX_CONDITION = 80
# variable names that hold requirement lists even when not handed to setup() by name
_REQUIREMENT_NAME = re.compile(r"requires|requirements|dependencies|deps\b|_pkgs\b", re.I)


@dataclass(frozen=True)
class SetupRequirement:
    requirement: ParsedRequirement
    keyword: str | None  # install_requires, setup_requires, tests_require, "extra:<name>", or None
    condition: str | None  # "IS_RELEASE", "not IS_RELEASE and USE_CUDA", or None


@dataclass(frozen=True)
class _Context:
    keyword: str | None = None
    conditions: tuple[str, ...] = ()
    # True inside a container that a requirement keyword receives: bare names count there.
    declared: bool = False


def _condition_text(node: ast.expr) -> str:
    text = ast.unparse(node)
    return text if len(text) <= _MAX_CONDITION else text[: _MAX_CONDITION - 1] + "…"


def _negated(text: str) -> str:
    return text[4:] if text.startswith("not ") else f"not {text}"


def _keyword_names(tree: ast.AST) -> dict[str, str]:
    """Variables handed to a requirement keyword: ``install_requires=REQUIRED`` -> REQUIRED."""
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg in _REQUIREMENT_KEYWORDS and isinstance(keyword.value, ast.Name):
                    found[keyword.value.id] = keyword.arg
    return found


class _Reader:
    def __init__(self, names: dict[str, str]) -> None:
        self.names = names
        self.found: list[SetupRequirement] = []
        # lists assigned so far, by variable or by extras key: ``extras["a"] + ["x"]`` reads "a" again
        self.lists: dict[str, ast.expr] = {}
        self.depth = 0

    def statements(self, body: list[ast.stmt], ctx: _Context) -> None:
        for statement in body:
            self.statement(statement, ctx)

    def statement(self, node: ast.stmt, ctx: _Context) -> None:
        if isinstance(node, ast.If):
            condition = _condition_text(node.test)
            self.statements(node.body, _Context(ctx.keyword, (*ctx.conditions, condition), ctx.declared))
            self.statements(node.orelse, _Context(ctx.keyword, (*ctx.conditions, _negated(condition)), ctx.declared))
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            inner = next((c for t in targets if (c := self.target(t, ctx)) is not None), ctx)
            if node.value is not None:
                self.value(node.value, inner)
                for t in targets:
                    if (name := _list_name(t)) is not None:
                        self.lists[name] = node.value
        elif isinstance(node, ast.Expr):
            self.calls(node.value, ctx)
        elif isinstance(node, ast.Return) and node.value is not None:
            self.value(node.value, ctx)  # def requirements(): return [...] if RELEASE else [...]
        else:
            # function bodies, with/try blocks, loops: read their statements in the same context
            for field in ("body", "orelse", "finalbody"):
                block = getattr(node, field, None)
                if isinstance(block, list):
                    self.statements([s for s in block if isinstance(s, ast.stmt)], ctx)
            for handler in getattr(node, "handlers", []) or []:
                self.statements(handler.body, ctx)

    def target(self, node: ast.expr, ctx: _Context) -> _Context | None:
        """The context an assignment target gives its value: ``REQUIRED = [...]`` handed to
        ``install_requires``, ``extras["test"] = [...]``, a name that says it lists requirements."""
        if isinstance(node, ast.Name):
            if node.id in self.names:
                return _Context(self.names[node.id], ctx.conditions, True)
            if _REQUIREMENT_NAME.search(node.id):
                return _Context(None, ctx.conditions, True)
            return None
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            owner = node.value.id
            key = node.slice.value if isinstance(node.slice, ast.Constant) else None
            extras = self.names.get(owner) == "extras_require" or "extra" in owner.lower()
            if extras and isinstance(key, str):
                return _Context(f"extra:{key}", ctx.conditions, True)
        return None

    def calls(self, node: ast.expr, ctx: _Context) -> None:
        """``setup(install_requires=[...])`` and ``reqs.append("x>=1")`` / ``.extend([...])``."""
        if not isinstance(node, ast.Call):
            return
        for argument in node.keywords:
            if argument.arg in _REQUIREMENT_KEYWORDS:
                self.value(argument.value, _Context(argument.arg, ctx.conditions, True))
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ("append", "extend", "insert"):
            owner = func.value.id if isinstance(func.value, ast.Name) else None
            keyword = self.names.get(owner or "")
            inner = _Context(keyword, ctx.conditions, keyword is not None) if keyword else ctx
            for arg in node.args:
                self.value(arg, inner)

    def value(self, node: ast.expr, ctx: _Context) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            self.constant(node.value, ctx)
        elif isinstance(node, ast.List | ast.Tuple | ast.Set):
            for element in node.elts:
                self.value(element, ctx)
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                extra = key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
                if ctx.keyword == "extras_require" and extra is not None:
                    self.value(value, _Context(f"extra:{extra}", ctx.conditions, True))
                else:
                    self.value(value, _Context(ctx.keyword, ctx.conditions, False))
        elif isinstance(node, ast.IfExp):
            condition = _condition_text(node.test)
            self.value(node.body, _Context(ctx.keyword, (*ctx.conditions, condition), ctx.declared))
            self.value(node.orelse, _Context(ctx.keyword, (*ctx.conditions, _negated(condition)), ctx.declared))
        elif isinstance(node, ast.BinOp):  # ["a"] + (["b"] if X else [])
            self.value(node.left, ctx)
            self.value(node.right, ctx)
        elif isinstance(node, ast.Call):
            self.calls(node, ctx)
        elif (name := _list_name(node)) is not None and name in self.lists and self.depth < 8:
            # a list defined earlier, included here: its requirements belong to this group too
            self.depth += 1
            self.value(self.lists[name], ctx)
            self.depth -= 1

    def constant(self, text: str, ctx: _Context) -> None:
        parsed = parse_requirement_text(text)
        if not isinstance(parsed, ParsedRequirement):
            return
        req = parsed.requirement
        shaped = bool(req.specifier or req.extras or req.url or req.marker)
        if not (shaped or ctx.declared):
            return
        condition = " and ".join(ctx.conditions) or None
        self.found.append(SetupRequirement(parsed, ctx.keyword, condition))


def _list_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    ):
        return f"{node.value.id}[{node.slice.value!r}]"
    return None


def setup_py_requirements(content: str) -> list[SetupRequirement] | None:
    """The requirements ``content`` declares, or None when it is not valid Python."""
    try:
        tree = ast.parse(content)
    except (SyntaxError, ValueError):
        return None
    reader = _Reader(_keyword_names(tree))
    reader.statements(tree.body, _Context())
    # a list read once where it is defined (no group known) and again where a group includes it
    grouped = {(r.requirement.normalized, r.condition) for r in reader.found if r.keyword is not None}
    return [r for r in reader.found if r.keyword is not None or (r.requirement.normalized, r.condition) not in grouped]
