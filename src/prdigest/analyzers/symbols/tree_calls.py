"""The calls each definition makes as statements, in Go, Rust, JavaScript and TypeScript,
read from tree-sitter's trees: `edits` compares them across the two sides of a file, as it
does Python's (`py_outline`), to say "`Server.Start` no longer calls `s.validate()`".

A call counts when it stands as a statement (``validate(ctx)``, ``defer s.mu.Unlock()``,
``go s.loop()``, ``await this.flush()``): a call inside an expression is part of a value. A
method called on a variable the definition declares itself (``items.push(x)`` after ``const
items = []``) builds a value, and is not listed.
"""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter

from prdigest.analyzers.symbols.diffmap import owning_definitions
from prdigest.analyzers.symbols.extract import Definition, definitions_from_tree, encode_source
from prdigest.analyzers.symbols.languages import parse
from prdigest.analyzers.symbols.tree_cache import TREES

MAX_SOURCE_CHARS = 200_000
_CLIP = 60
# Statements whose first child is the call they make.
_STATEMENTS = frozenset({"expression_statement", "defer_statement", "go_statement"})
_CALLS = frozenset({"call_expression", "call"})
_FUNCTION_LITERALS = frozenset(
    {"func_literal", "function_expression", "function", "arrow_function", "closure_expression"}
)
# Declarations and the field that names what they declare: Go, Rust, JavaScript/TypeScript.
_DECLARATIONS = {"short_var_declaration": "left", "var_spec": "name", "let_declaration": "pattern",
                 "variable_declarator": "name"}  # fmt: skip


def _node_text(node: tree_sitter.Node, source: bytes) -> str:
    return " ".join(source[node.start_byte : node.end_byte].decode("utf-8", "replace").split())


def _walk(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.named_children))


def _innermost(definitions: list[Definition], line: int) -> Definition | None:
    found: Definition | None = None
    for definition in definitions:
        if definition.start_line <= line <= definition.end_line and (
            found is None or definition.end_line - definition.start_line < found.end_line - found.start_line
        ):
            found = definition
    return found


def _callee(statement: tree_sitter.Node, source: bytes) -> str | None:
    call = statement.named_children[0] if statement.named_children else None
    if call is not None and call.type == "await_expression" and call.named_children:
        call = call.named_children[0]
    if call is None or call.type not in _CALLS:
        return None
    return _called(call, source)


def _called(call: tree_sitter.Node, source: bytes) -> str | None:
    """The callee of a call expression, as `_callee` names it."""
    function = call.child_by_field_name("function")
    while function is not None and function.type == "parenthesized_expression" and function.named_children:
        function = function.named_children[0]
    if function is None or function.type in _FUNCTION_LITERALS:
        # ``defer func() { … }()``: a closure run in place is its body's code, no call of a name
        return None
    # a chain split over lines (``req.extensions_mut()\n    .insert``) reads as one name
    text = _node_text(function, source).replace(" .", ".").replace(" ::", "::")
    return text if len(text) <= _CLIP else text[: _CLIP - 1] + "…"


def _receiver(callee: str) -> str:
    for separator in (".", "::", "->"):
        root, found, _ = callee.partition(separator)
        if found and root.isidentifier():
            return root
    return ""


class SideCalls:
    """One side of a file: its tree and definitions, parsed once."""

    def __init__(self, text: str, grammar_key: str) -> None:
        self.source = encode_source(text) if len(text) <= MAX_SOURCE_CHARS else b""
        self.tree: tree_sitter.Tree | None = None
        self.definitions: list[Definition] = []
        # Per definition read by `calls`: every callee it calls, in a statement or an expression.
        self.anywhere: dict[str, set[str]] = {}
        if not self.source:
            return
        # The symbol analyzer has just parsed these contents: its cached tree is reused (and
        # put back, unedited, for the next PR whose old file this is).
        cached = TREES.get(grammar_key, self.source)
        if cached is not None:
            self.tree, self.definitions = cached
            TREES.put(grammar_key, self.source, self.tree, self.definitions)
        else:
            self.tree = parse(grammar_key, self.source)
            self.definitions = definitions_from_tree(self.tree, grammar_key)

    def touched(self, lines: tuple[int, ...]) -> set[str]:
        """The definitions innermost around any of `lines` (the side's changed lines, sorted):
        those whose statement calls can differ."""
        return {self.definitions[i].name for i in owning_definitions(self.definitions, lines)}

    def calls(self, names: set[str]) -> dict[str, tuple[int, tuple[str, ...]]]:
        """Per definition of `names`: its first line and the callees of its statement calls, in
        order. Only their spans are walked: a large file's other definitions cost nothing."""
        wanted = [d for d in self.definitions if d.name in names]
        if self.tree is None or not wanted:
            return {}
        spans = [(d.start_line - 1, d.end_line - 1) for d in wanted]
        calls: dict[str, list[tuple[int, str]]] = {}
        local_names: dict[str, set[str]] = {}
        stack = [self.tree.root_node]
        while stack:
            node = stack.pop()
            first, last = node.start_point[0], node.end_point[0]
            if not any(first <= end and last >= start for start, end in spans):
                continue  # outside every wanted definition
            line = first + 1
            if node.type in _CALLS and (called := _called(node, self.source)) is not None:
                owner = _innermost(wanted, line)
                if owner is not None:
                    self.anywhere.setdefault(owner.name, set()).add(called)
            if node.type in _STATEMENTS:
                callee = _callee(node, self.source)
                owner = _innermost(wanted, line) if callee is not None else None
                if callee is not None and owner is not None:
                    calls.setdefault(owner.name, []).append((node.start_byte, callee))
            elif node.type in _DECLARATIONS:
                declared = node.child_by_field_name(_DECLARATIONS[node.type])
                owner = _innermost(wanted, line)
                if declared is not None and owner is not None:
                    found = local_names.setdefault(owner.name, set())
                    found.update(_node_text(n, self.source) for n in _walk(declared) if n.type == "identifier")
            stack.extend(node.named_children)
        first_lines = {d.name: d.start_line for d in wanted}
        return {
            name: (
                first_lines[name],
                tuple(c for _, c in sorted(found) if _receiver(c) not in local_names.get(name, set())),
            )
            for name, found in calls.items()
        }
