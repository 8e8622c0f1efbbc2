"""What `edits` reads from a Python file's syntax tree, computed once per file contents.

The outline of one contents holds, per run of top-level statements ("group"): its
functions (parameters, decorators, assertions, raises, handlers), its module- and
class-level constants, its import guards and its platform checks, with line numbers
relative to the group's first line. Groups let an outline be assembled from pieces: the
breadth-first order in which `ast.walk` would meet guards and checks over the whole module
is the order of (depth, group, place within the group at that depth), and functions and
constants follow the groups in order.

Outlines are kept per process (`py_pieces.PYTHON`), assembled from the outlines of the
file's pieces (runs of top-level statements), each kept by a digest of its text: a new
version of a file parses only the pieces its change touched.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import cast

_CONSTANT_NAME = re.compile(r"^(?:[A-Z][A-Z0-9_]*|__version__|__all__)$")
_PLATFORM_TEST = re.compile(
    r"\bsys\.platform\b|\bplatform\.(?:system|machine|python_implementation)\(|\bos\.name\b|"
    r"\bsys\.implementation\b|\bcurrent_platform\.is_\w+\(|\bIS_(?:WINDOWS|MACOS|LINUX)\b",
)
IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})
# Fields that only ever hold leaves no analysis here looks at (Load/Store, operators).
_LEAF_FIELDS = frozenset({"ctx", "op", "ops"})
_FUNCTION = ast.FunctionDef | ast.AsyncFunctionDef
_NOT_LITERAL = object()


@dataclass(frozen=True)
class FunctionOutline:
    line: int  # of the ``def``, relative to its group
    params: tuple[str, ...]
    defaults: tuple[tuple[str, str], ...]  # (parameter, its default as written), for those with one
    decorators: tuple[str, ...]
    asserts: tuple[str, ...]
    raises: tuple[str, ...]
    handlers: tuple[str, ...]
    # Callees of the calls made as statements, for their effect (``self._check()``), in order;
    # a call inside an expression is part of a value, and is not listed.
    calls: tuple[str, ...] = ()

    def same_apart_from_line(self, other: FunctionOutline) -> bool:
        """Every field equal but perhaps `line` (where the ``def`` stands): the same object
        when the function's piece is the same text on both sides."""
        return self is other or (
            self.params == other.params
            and self.defaults == other.defaults
            and self.decorators == other.decorators
            and self.asserts == other.asserts
            and self.raises == other.raises
            and self.handlers == other.handlers
            and self.calls == other.calls
        )


@dataclass(frozen=True)
class GroupOutline:
    """One run of top-level statements; every line relative to its first line."""

    functions: tuple[tuple[str, FunctionOutline], ...]  # first definition of each name, in order
    constants: tuple[tuple[str, object, int], ...]  # (name, value, line), as a dict would keep them
    guards: tuple[tuple[int, int, str, int], ...]  # (depth, order, module, line) of import guards
    checks: tuple[tuple[int, int, str, int], ...]  # (depth, order, test source, line) of platform checks


@dataclass(frozen=True)
class Outline:
    groups: tuple[tuple[int, GroupOutline], ...]  # (first line, outline), in order

    def functions(self) -> dict[str, tuple[int, FunctionOutline]]:
        """Qualified name → (absolute line of the def, outline); the first definition wins."""
        found: dict[str, tuple[int, FunctionOutline]] = {}
        for first, group in self.groups:
            for name, fn in group.functions:
                found.setdefault(name, (first + fn.line, fn))
        return found

    def constants(self) -> dict[str, tuple[object, int]]:
        found: dict[str, tuple[object, int]] = {}
        for first, group in self.groups:
            for name, value, line in group.constants:
                found[name] = (value, first + line)
        return found

    def guards(self) -> dict[str, int]:
        """Modules imported under ``try`` / ``except ImportError`` → line, as `ast.walk` meets them first."""
        return _first_seen(
            [
                (depth, g, order, key, first + line)
                for g, (first, group) in enumerate(self.groups)
                for depth, order, key, line in group.guards
            ]
        )

    def checks(self) -> dict[str, int]:
        """Tests of ``if`` statements and expressions that ask for the platform → line."""
        return _first_seen(
            [
                (depth, g, order, key, first + line)
                for g, (first, group) in enumerate(self.groups)
                for depth, order, key, line in group.checks
            ]
        )


_Seen = tuple[int, int, int, str, int]  # (depth, group, order, key, absolute line)


def _first_seen(items: list[_Seen]) -> dict[str, int]:
    found: dict[str, int] = {}
    for _depth, _group, _order, key, line in sorted(items, key=lambda item: item[:3]):
        found.setdefault(key, line)
    return found


# --- walking a tree ---------------------------------------------------------------------

_FIELDS: dict[type, tuple[str, ...]] = {}


def _children(node: ast.AST) -> list[ast.AST]:
    """`ast.iter_child_nodes` without the leaves nobody here looks at, in the same order."""
    kind = type(node)
    fields = _FIELDS.get(kind)
    if fields is None:
        fields = _FIELDS[kind] = tuple(f for f in kind._fields if f not in _LEAF_FIELDS)
    found: list[ast.AST] = []
    for name in fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            found.append(value)
        elif isinstance(value, list):
            found.extend(item for item in value if isinstance(item, ast.AST))
    return found


_BLOCK = ast.stmt | ast.ExceptHandler | ast.match_case


def _block_children(node: ast.AST) -> list[ast.AST]:
    """The statements, handlers and match cases among a node's children, in order."""
    return [child for child in _children(node) if isinstance(child, _BLOCK)]


def unparsed(node: ast.expr) -> str:
    """`ast.unparse`, with the commonest expressions of outlines (a name; ``None``, a bool or an
    int) written directly: what `ast.unparse` writes for them, without its unparser object."""
    kind = type(node)
    if kind is ast.Name:
        return cast(ast.Name, node).id
    if kind is ast.Constant:
        constant = cast(ast.Constant, node)
        value = constant.value
        if constant.kind is None and (value is None or type(value) in (bool, int)):
            return repr(value)
    return ast.unparse(node)


def handler_names(handler: ast.ExceptHandler) -> list[str]:
    if handler.type is None:
        return ["(bare except)"]
    if isinstance(handler.type, ast.Tuple):
        return [unparsed(e) for e in handler.type.elts]
    return [unparsed(handler.type)]


def _function(node: ast.FunctionDef | ast.AsyncFunctionDef, first: int) -> FunctionOutline:
    args = node.args
    params = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    if args.vararg is not None:
        params.append("*" + args.vararg.arg)
    if args.kwarg is not None:
        params.append("**" + args.kwarg.arg)
    positional = [*args.posonlyargs, *args.args]
    # positional defaults belong to the last parameters; a keyword-only one has its own or None
    with_default = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True))
    with_default += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None]
    defaults = tuple((a.arg, unparsed(d)) for a, d in with_default)
    asserts: list[str] = []
    raises: list[str] = []
    handlers: list[str] = []
    calls: list[tuple[int, str]] = []
    # Variables the function assigns, and its ``*args``/``**kwargs`` (``kwargs.pop(…)`` reads an
    # argument): a method called on one builds or reads a value.
    local_names = {p.lstrip("*") for p in params if p.startswith("*")}
    # The nodes of the body, not descending into nested functions or classes. Only statements
    # (and handlers, match cases) are walked: what is collected is a statement or a handler,
    # and expressions hold none; the order of what is found is `ast.walk`'s all the same.
    stack = _block_children(node)
    while stack:
        child = stack.pop()
        if isinstance(child, ast.Assert):
            asserts.append(ast.unparse(child.test))
        elif isinstance(child, ast.Raise) and child.exc is not None:
            exc = child.exc.func if isinstance(child.exc, ast.Call) else child.exc
            raises.append(unparsed(exc))
        elif isinstance(child, ast.ExceptHandler):
            handlers.extend(handler_names(child))
        elif isinstance(child, ast.Expr) and (callee := _statement_callee(child.value)) is not None:
            calls.append((child.lineno, callee))
        local_names.update(_assigned_names(child))
        if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            stack.extend(_block_children(child))
    decorators = [unparsed(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list]
    return FunctionOutline(
        line=node.lineno - first,
        params=tuple(params),
        defaults=defaults,
        decorators=tuple(decorators),
        asserts=tuple(asserts),
        raises=tuple(raises),
        handlers=tuple(handlers),
        # In line order (the stack pops the last statement first). A method called on a variable
        # the function made itself (``items.append(x)``) or on ``*args``/``**kwargs`` builds or
        # reads a value; it is not listed.
        calls=tuple(callee for _, callee in sorted(calls) if _receiver(callee) not in local_names),
    )


def _receiver(callee: str) -> str:
    """``items`` of ``items.append`` (and of ``items[k].append``); "" for a plain function."""
    found = _RECEIVER.match(callee)
    return found.group(1) if found else ""


_RECEIVER = re.compile(r"([A-Za-z_]\w*)[.\[]")


def _assigned_names(statement: ast.AST) -> list[str]:
    """The plain names a statement binds (``x = …``, ``for x in …``, ``with … as x``)."""
    targets: list[ast.AST] = []
    if isinstance(statement, ast.Assign):
        targets = list(statement.targets)
    elif isinstance(statement, ast.AnnAssign | ast.AugAssign | ast.For | ast.AsyncFor):
        targets = [statement.target]
    elif isinstance(statement, ast.With | ast.AsyncWith):
        targets = [item.optional_vars for item in statement.items if item.optional_vars is not None]
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


def _statement_callee(value: ast.expr) -> str | None:
    """``check`` of ``check(x)`` or ``await check(x)`` standing as a statement."""
    if isinstance(value, ast.Await):
        value = value.value
    return unparsed(value.func) if isinstance(value, ast.Call) else None


def _functions(body: list[ast.stmt], first: int) -> tuple[tuple[str, FunctionOutline], ...]:
    found: dict[str, FunctionOutline] = {}

    def visit(statements: list[ast.stmt], prefix: str) -> None:
        for node in statements:
            if isinstance(node, _FUNCTION):
                name = f"{prefix}{node.name}"
                if name not in found:
                    found[name] = _function(node, first)
                visit(node.body, name + ".")
            elif isinstance(node, ast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.")

    visit(body, "")
    return tuple(found.items())


def called_anywhere(text: str) -> dict[str, set[str]]:
    """Per function of `text` (named as `Outline.functions` names them): every callee it calls,
    in a statement or inside an expression (``ok = check(x)``), not in functions it defines."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return {}
    found: dict[str, set[str]] = {}

    def visit(statements: list[ast.stmt], prefix: str) -> None:
        for node in statements:
            if isinstance(node, _FUNCTION):
                name = f"{prefix}{node.name}"
                callees = found.setdefault(name, set())
                stack: list[ast.AST] = [*node.body]
                while stack:
                    child = stack.pop()
                    if isinstance(child, _FUNCTION | ast.ClassDef | ast.Lambda):
                        continue
                    if isinstance(child, ast.Call):
                        callees.add(unparsed(child.func))
                    stack.extend(ast.iter_child_nodes(child))
                visit(node.body, name + ".")
            elif isinstance(node, ast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.")

    visit(tree.body, "")
    return found


def _literal(node: ast.expr) -> object:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NOT_LITERAL


def _constants(body: list[ast.stmt], first: int) -> tuple[tuple[str, object, int], ...]:
    """Module- and class-level ``NAME = <literal>``."""
    found: dict[str, tuple[object, int]] = {}

    def visit(statements: list[ast.stmt], prefix: str) -> None:
        for node in statements:
            if isinstance(node, ast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.")
                continue
            targets: list[ast.expr] = []
            value: ast.expr | None = None
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets, value = [node.target], node.value
            if value is None or not any(isinstance(t, ast.Name) and _CONSTANT_NAME.match(t.id) for t in targets):
                continue  # (literal_eval only for what could be kept: its result is unused otherwise)
            literal = _literal(value)
            if literal is _NOT_LITERAL:
                continue
            for target in targets:
                if isinstance(target, ast.Name) and _CONSTANT_NAME.match(target.id):
                    found[f"{prefix}{target.id}"] = (literal, node.lineno - first)

    visit(body, "")
    return tuple((name, value, line) for name, (value, line) in found.items())


class _Lines:
    """The source lines, to skip expressions whose text cannot hold a platform test."""

    def __init__(self, text: str | None) -> None:
        # Lines as the parser numbers them; with a carriage return (or no text) nothing is skipped.
        self.lines = text.split("\n") if text is not None and "\r" not in text else None
        self.text = text or ""

    def may_find_any(self) -> bool:
        """Whether the text could hold an import guard or a platform check at all: the names a
        guard catches are in it (or a non-ASCII identifier could spell them), or some span of
        it could hold a platform test (`may_test_platform` of the whole text: its tests are
        of substrings, and spans start and end at line breaks, so no word boundary moves)."""
        if self.lines is None:
            return True
        text = self.text
        return "ImportError" in text or "ModuleNotFoundError" in text or self._may_test_platform(text)

    def may_test_platform(self, node: ast.AST) -> bool:
        """Whether the unparsed source of ``node`` could match `_PLATFORM_TEST`: the words it
        looks for are in the node's lines, or strings could make them up (an escape, literals
        joined by adjacency), or a non-ASCII identifier could (names are NFKC-normalized)."""
        start, end = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
        if self.lines is None or start is None or end is None:
            return True
        return self._may_test_platform("\n".join(self.lines[start - 1 : end]))

    @staticmethod
    def _may_test_platform(span: str) -> bool:
        return (
            any(word in span for word in _PLATFORM_WORDS)
            or (_OS.search(span) is not None and _NAME.search(span) is not None)
            or "\\" in span
            or _ADJACENT_STRINGS.search(span) is not None
            or not span.isascii()
        )

    def may_hold_if_expression(self, node: ast.AST) -> bool:
        start, end = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
        if isinstance(node, _BLOCK) or self.lines is None or start is None or end is None:
            return True  # statements, and small nodes without lines (arguments, with items)
        return "if" in "\n".join(self.lines[start - 1 : end]) and self.may_test_platform(node)


_PLATFORM_WORDS = ("platform", "implementation", "IS_WINDOWS", "IS_MACOS", "IS_LINUX")
_OS = re.compile(r"\bos\b")
_NAME = re.compile(r"\bname\b")
# Two string literals side by side (implicitly joined): a quote, then only blanks and
# comments, then a literal's prefix and quote. Also true of any empty or triple-quoted string.
_ADJACENT_STRINGS = re.compile(r"['\"]\s*(?:#[^\n]*\s*)*[rRbBuUfF]{0,2}['\"]")


def imports_under(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """The imports a ``try`` body runs, also inside its blocks (``with warnings.catch_warnings():``
    around the import still guards it), not those of functions or classes it defines."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.stmt) and not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            stack.extend(reversed([c for c in ast.iter_child_nodes(node) if isinstance(c, ast.stmt)]))
    return found


def _guards_and_checks(
    body: list[ast.stmt], first: int, lines: _Lines
) -> tuple[tuple[tuple[int, int, str, int], ...], tuple[tuple[int, int, str, int], ...]]:
    """Import guards and platform checks in breadth-first order (that of `ast.walk`).

    Expressions that cannot hold a platform test are not walked: leaving out subtrees keeps
    the order of the rest."""
    if not lines.may_find_any():
        return (), ()
    guards: list[tuple[int, int, str, int]] = []
    checks: list[tuple[int, int, str, int]] = []
    level: list[ast.AST] = list(body)
    depth = 1
    order = 0
    while level:
        following: list[ast.AST] = []
        for node in level:
            order += 1
            if isinstance(node, ast.Try):
                caught = {name for h in node.handlers for name in handler_names(h)}
                if caught & IMPORT_ERRORS:
                    for statement in imports_under(node.body):
                        if isinstance(statement, ast.Import):
                            for alias in statement.names:
                                guards.append((depth, order, alias.name, node.lineno - first))
                        elif isinstance(statement, ast.ImportFrom) and statement.module:
                            guards.append((depth, order, statement.module, node.lineno - first))
            elif isinstance(node, ast.If | ast.IfExp) and lines.may_test_platform(node.test):
                test = ast.unparse(node.test)
                if _PLATFORM_TEST.search(test):
                    checks.append((depth, order, test, node.lineno - first))
            following.extend(child for child in _children(node) if lines.may_hold_if_expression(child))
        level = following
        depth += 1
    return tuple(guards), tuple(checks)


def group_outline(body: list[ast.stmt], first: int, lines: _Lines) -> GroupOutline:
    guards, checks = _guards_and_checks(body, first, lines)
    return GroupOutline(
        functions=_functions(body, first),
        constants=_constants(body, first),
        guards=guards,
        checks=checks,
    )


def parse_module(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def outline_of_tree(tree: ast.Module, text: str | None = None) -> Outline:
    return Outline(groups=((0, group_outline(tree.body, 0, _Lines(text))),) if tree.body else ())


def piece_outline(tree: ast.Module, text: str) -> GroupOutline:
    """The outline of a piece of a file parsed on its own: lines relative to its first line."""
    return group_outline(tree.body, 0, _Lines(text))


def member_outline(tree: ast.Module, text: str) -> GroupOutline:
    """The outline of class members parsed as the body of one ``if`` (`py_pieces` wraps them
    so): functions and constants named as if at the top (the caller adds the class's name);
    guards and checks from the wrapper down, whose depths are then those within the class."""
    members = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.If) else []
    guards, checks = _guards_and_checks(tree.body, 0, _Lines(text))
    return GroupOutline(
        functions=_functions(members, 0), constants=_constants(members, 0), guards=guards, checks=checks
    )
