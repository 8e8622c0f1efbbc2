"""Definitions (functions, methods, classes, ...) of one source file, with qualified names.

A tree-sitter query finds the definition and scope nodes in C (in a Python tree without
errors, a walk over the statements, which is cheaper); Python then only visits
those nodes, so cost grows with the number of definitions, not the size of the tree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import tree_sitter

from prdigest.analyzers.symbols.languages import GRAMMARS, definition_query, parse
from prdigest.models.facts import SymbolKind

# Beyond this many characters a file is not parsed (generated or vendored code, minified JS).
MAX_PARSE_CHARS = 1_000_000


class Definition(NamedTuple):
    """A tuple: made by the thousand when pieces' definitions shift (a frozen dataclass's
    ``__init__`` costs several times as much)."""

    name: str  # qualified: HummingConfig.__init__, Foo::bar, Server.Start
    kind: SymbolKind
    start_line: int  # 1-based, inclusive
    end_line: int  # 1-based, inclusive
    parent: int | None = None  # index of the innermost enclosing definition in the list
    # Reachable from outside its module by the language's keyword (Rust ``pub``, JavaScript
    # and TypeScript ``export``); None where a keyword does not decide (Python, Go: by name; C).
    exported: bool | None = None


@dataclass(frozen=True)
class _Named:
    """What one captured node contributes: its own name, kind, and the scope it opens."""

    name: str
    kind: SymbolKind | None  # None: a naming scope only (namespace, mod), not a symbol
    scope: str | None  # name children are qualified with; None: children not qualified
    container: bool  # children are methods (class, impl, trait) rather than functions


def _text(node: tree_sitter.Node | None) -> str:
    if node is None or node.text is None:
        return ""
    return " ".join(node.text.decode("utf-8", "replace").split())


def _field_text(node: tree_sitter.Node, field: str) -> str:
    return _text(node.child_by_field_name(field))


def _c_function_name(node: tree_sitter.Node) -> str:
    """Follow pointer/reference declarators down to the function declarator's name."""
    declarator = node.child_by_field_name("declarator")
    for _ in range(16):  # declarator nesting is shallow; bound it against odd trees
        if declarator is None:
            return ""
        if declarator.type == "function_declarator":
            return _text(declarator.child_by_field_name("declarator"))
        inner = declarator.child_by_field_name("declarator")
        if inner is None:  # reference_declarator has no field name on its child
            inner = declarator.named_children[-1] if declarator.named_children else None
        declarator = inner
    return ""


def _go_receiver_type(node: tree_sitter.Node) -> str:
    receiver = node.child_by_field_name("receiver")
    if receiver is None:
        return ""
    for param in receiver.named_children:
        kind = param.child_by_field_name("type")
        while kind is not None and kind.type in ("pointer_type", "generic_type"):
            inner = kind.child_by_field_name("type")
            kind = inner if inner is not None else (kind.named_children[-1] if kind.named_children else None)
        return _text(kind)
    return ""


def _rust_type_name(node: tree_sitter.Node | None) -> str:
    if node is not None and node.type == "generic_type":
        node = node.child_by_field_name("type")
    return _text(node)


def _describe_python(node: tree_sitter.Node, in_container: bool) -> _Named | None:
    name = _field_text(node, "name")
    if node.type == "class_definition":
        return _Named(name, "class", name, True)
    return _Named(name, "method" if in_container else "function", name, False)


def _describe_c(node: tree_sitter.Node, in_container: bool) -> _Named | None:
    if node.type == "namespace_definition":
        name = _field_text(node, "name")
        return _Named(name, None, name or None, False)
    if node.type == "function_definition":
        name = _c_function_name(node)
        kind: SymbolKind = "method" if in_container or "::" in name else "function"
        return _Named(name, kind, None, False)
    name = _field_text(node, "name")
    kinds: dict[str, SymbolKind] = {
        "class_specifier": "class",
        "struct_specifier": "struct",
        "union_specifier": "struct",
        "enum_specifier": "enum",
    }
    return _Named(name, kinds.get(node.type, "other"), name, True)


_GO_TYPE_KINDS: dict[str, SymbolKind] = {"struct_type": "struct", "interface_type": "interface"}


def _describe_go(node: tree_sitter.Node, in_container: bool) -> _Named | None:
    name = _field_text(node, "name")
    if node.type == "method_declaration":
        receiver = _go_receiver_type(node)
        return _Named(f"{receiver}.{name}" if receiver else name, "method", None, False)
    if node.type == "type_spec":
        type_node = node.child_by_field_name("type")
        type_kind = type_node.type if type_node is not None else ""
        kind = _GO_TYPE_KINDS.get(type_kind, "other")
        return _Named(name, kind, None, False)
    return _Named(name, "function", None, False)


def _describe_rust(node: tree_sitter.Node, in_container: bool) -> _Named | None:
    if node.type == "mod_item":
        name = _field_text(node, "name")
        return _Named(name, None, name or None, False)
    if node.type == "impl_item":
        type_name = _rust_type_name(node.child_by_field_name("type"))
        trait = _field_text(node, "trait")
        label = f"{trait} for {type_name}" if trait else type_name
        return _Named(label, "impl", type_name, True)
    name = _field_text(node, "name")
    if node.type == "function_item":
        return _Named(name, "method" if in_container else "function", None, False)
    kinds: dict[str, SymbolKind] = {
        "struct_item": "struct",
        "union_item": "struct",
        "enum_item": "enum",
        "trait_item": "trait",
    }
    return _Named(name, kinds.get(node.type, "other"), name, node.type == "trait_item")


def _describe_js(node: tree_sitter.Node, in_container: bool) -> _Named | None:
    kind: SymbolKind
    if node.type == "internal_module":
        name = _field_text(node, "name")
        return _Named(name, None, name or None, False)
    if node.type in ("class_declaration", "abstract_class_declaration"):
        name = _field_text(node, "name")
        return _Named(name, "class", name, True)
    if node.type in ("interface_declaration", "enum_declaration"):
        kind = "interface" if node.type == "interface_declaration" else "enum"
        return _Named(_field_text(node, "name"), kind, None, False)
    if node.type == "field_definition":
        return _Named(_field_text(node, "property"), "method", None, False)
    if node.type in ("method_definition", "public_field_definition"):
        return _Named(_field_text(node, "name"), "method", None, False)
    if node.type == "assignment_expression":
        return _js_assigned(node)
    kind = "method" if in_container else "function"
    return _Named(_field_text(node, "name"), kind, None, False)


def _js_assigned(node: tree_sitter.Node) -> _Named | None:
    """A function assigned to a member (CommonJS and pre-class code): ``module.exports =
    function httpAdapter() {}`` is ``httpAdapter``, ``exports.settle = …`` is ``settle``,
    ``Axios.prototype.request = …`` is the method ``Axios.request``, ``utils.merge = …`` is
    ``utils.merge``; an anonymous function handed to ``module.exports`` has no name to tell."""
    target = _text(node.child_by_field_name("left"))
    if target == "module.exports":
        name = _field_text(node.child_by_field_name("right") or node, "name")
        return _Named(name, "function", None, False) if name else None
    for prefix in ("module.exports.", "exports."):
        if target.startswith(prefix):
            return _Named(target[len(prefix) :], "function", None, False)
    owner, _, member = target.rpartition(".")
    if not owner or not member:
        return None
    if owner.endswith(".prototype"):
        return _Named(f"{owner[: -len('.prototype')]}.{member}", "method", None, False)
    return _Named(target, "function", None, False)


def _rust_exported(node: tree_sitter.Node, parent: Definition | None) -> bool | None:
    """``pub`` (not ``pub(crate)``/``pub(super)``/``pub(in …)``, reachable only inside the
    crate); a trait's own methods are as public as the trait, and a method of a trait impl as
    the trait it implements, which this file may not say."""
    modifier = next((c for c in node.children if c.type == "visibility_modifier"), None)
    if modifier is None:
        if parent is not None and parent.kind == "trait":
            return parent.exported  # a trait's methods are as public as the trait
        if parent is not None and parent.kind == "impl" and " for " in parent.name:
            return None
        return False
    text = modifier.text or b""
    return text.strip() == b"pub"


def _js_exported(node: tree_sitter.Node, parent: Definition | None, listed: frozenset[str]) -> bool | None:
    """``export``ed (``export function f``, ``export const f = () => …``, ``export class C``)
    or, at the top level, named by an export apart from it (``listed``: ``export default C``,
    ``export {f}``, CommonJS ``module.exports``); a class member is as exported as its class
    unless private (``#name``, ``private``, ``protected``)."""
    if node.type in ("method_definition", "public_field_definition", "field_definition"):
        name = node.child_by_field_name("name") or node.child_by_field_name("property")
        if name is not None and name.type == "private_property_identifier":
            return False
        if any(c.type == "accessibility_modifier" and c.text in (b"private", b"protected") for c in node.children):
            return False
        return bool(parent is not None and parent.exported)
    if node.type == "assignment_expression":
        # `module.exports = f`, `exports.f = …` hand it out; `Owner.prototype.m = …` and
        # `owner.m = …` are as exported as their owner
        target = _text(node.child_by_field_name("left"))
        if target == "module.exports" or target.startswith(("module.exports.", "exports.")):
            return parent is None
        return parent is None and target.split(".", 1)[0] in listed
    outer = node.parent
    if node.type == "variable_declarator" and outer is not None:
        outer = outer.parent  # the lexical or variable declaration holding it
    if outer is not None and outer.type == "export_statement":
        return True
    return parent is None and _text(node.child_by_field_name("name")) in listed


def _exported_names(root: tree_sitter.Node) -> frozenset[str]:
    """Names a module exports apart from their declarations, at its top level: ES
    ``export default f``, ``export {f, g as h}``; CommonJS ``module.exports = f``,
    ``module.exports = {f, g: g}``, ``exports.f = f`` / ``module.exports.f = f``."""
    names: set[str] = set()
    for statement in root.children:
        if statement.type == "export_statement":
            names.update(_listed_exports(statement))
            continue
        assignment = statement.named_children[0] if statement.type == "expression_statement" else None
        if assignment is None or assignment.type != "assignment_expression":
            continue
        target, value = _text(assignment.child_by_field_name("left")), assignment.child_by_field_name("right")
        if value is None or not (target == "module.exports" or target.startswith(("exports.", "module.exports."))):
            continue
        if value.type == "identifier":
            names.add(_text(value))
        elif value.type == "object" and target == "module.exports":
            for item in value.named_children:
                if item.type == "shorthand_property_identifier":
                    names.add(_text(item))
                elif (
                    item.type == "pair"
                    and (held := item.child_by_field_name("value")) is not None
                    and held.type == "identifier"
                ):
                    names.add(_text(held))
    return frozenset(names)


def _listed_exports(statement: tree_sitter.Node) -> list[str]:
    value = statement.child_by_field_name("value")
    if value is not None and value.type == "identifier":
        return [_text(value)]
    clause = next((c for c in statement.named_children if c.type == "export_clause"), None)
    if clause is None:
        return []
    return [
        _text(item.child_by_field_name("name")) for item in clause.named_children if item.type == "export_specifier"
    ]


# Per family: whether a definition node is exported, given its enclosing definition and the
# names the file exports by CommonJS.
_Exported = Callable[[tree_sitter.Node, Definition | None, frozenset[str]], bool | None]
_EXPORTED: dict[str, _Exported] = {
    "rust": lambda node, parent, _listed: _rust_exported(node, parent),
    "js": _js_exported,
}

_DESCRIBERS = {
    "python": _describe_python,
    "c": _describe_c,
    "go": _describe_go,
    "rust": _describe_rust,
    "js": _describe_js,
}


def line_span(node: tree_sitter.Node) -> tuple[int, int]:
    start = node.start_point.row + 1
    end_row, end_col = node.end_point.row, node.end_point.column
    # A node ending at column 0 stops before that line's first character.
    end = end_row if end_col == 0 and end_row > node.start_point.row else end_row + 1
    return start, end


def _outer_node(node: tree_sitter.Node) -> tree_sitter.Node:
    """Widen a definition to its decorators / export / declaration keyword, when it has them."""
    parent = node.parent
    if parent is not None and parent.type in ("decorated_definition", "template_declaration"):
        return parent
    if node.type == "variable_declarator" and parent is not None:
        return parent
    return node


def extract_definitions(source: str, grammar_key: str) -> list[Definition]:
    """Every definition in ``source`` in document order; an empty list for unparsable input."""
    if not source or len(source) > MAX_PARSE_CHARS:
        return []
    return definitions_from_tree(parse(grammar_key, encode_source(source)), grammar_key)


def encode_source(source: str) -> bytes:
    # Lone surrogates (from surrogateescape decoding) cannot be encoded; replace them.
    return source.encode("utf-8", "replace")


def definitions_from_tree(tree: tree_sitter.Tree, grammar_key: str) -> list[Definition]:
    """Every definition in a parsed tree, in document order."""
    grammar = GRAMMARS[grammar_key]
    describe = _DESCRIBERS[grammar.family]
    exported = _EXPORTED.get(grammar.family)
    listed = _exported_names(tree.root_node) if grammar.family == "js" else frozenset()
    if grammar.family == "python" and not tree.root_node.has_error:
        nodes = [(node, True) for node in _python_definition_nodes(tree.root_node)]
    else:
        captures = tree_sitter.QueryCursor(definition_query(grammar_key)).captures(tree.root_node)
        nodes = [(node, True) for node in captures.get("def", [])]
        nodes += [(node, False) for node in captures.get("scope", [])]
    # Outer nodes before inner ones: a stack of open scopes then gives each node its parents.
    nodes.sort(key=lambda item: (item[0].start_byte, -item[0].end_byte))

    definitions: list[Definition] = []
    # Open scopes: (end_byte, qualified scope name or None, is container, definition index or None).
    stack: list[tuple[int, str | None, bool, int | None]] = []
    for node, _is_def in nodes:
        while stack and stack[-1][0] <= node.start_byte:
            stack.pop()
        prefix = next((entry[1] for entry in reversed(stack) if entry[1] is not None), None)
        in_container = bool(stack) and stack[-1][2]
        parent = next((entry[3] for entry in reversed(stack) if entry[3] is not None), None)
        named = describe(node, in_container)
        if named is None:
            continue
        qualified = f"{prefix}{grammar.separator}{named.name}" if prefix and named.name else named.name
        index: int | None = None
        if named.kind is not None and named.name:
            start, end = line_span(_outer_node(node))
            index = len(definitions)
            outer = None if parent is None else definitions[parent]
            mark = None if exported is None else exported(node, outer, listed)
            definitions.append(Definition(qualified, named.kind, start, end, parent, mark))
        scope = None
        if named.scope:
            scope = f"{prefix}{grammar.separator}{named.scope}" if prefix else named.scope
        elif named.kind is not None and named.name:
            scope = qualified  # nested functions: outer.inner
        stack.append((node.end_byte, scope, named.container, index))
    return definitions


# Python nodes that can hold statements (so definitions). In a tree without errors a
# definition is a statement, found only inside these, never inside an expression.
_PYTHON_BLOCKS = frozenset(
    {
        "module",
        "block",
        "function_definition",
        "class_definition",
        "decorated_definition",
        "if_statement",
        "elif_clause",
        "else_clause",
        "for_statement",
        "while_statement",
        "try_statement",
        "except_clause",
        "except_group_clause",
        "finally_clause",
        "with_statement",
        "match_statement",
        "case_clause",
    }
)
_PYTHON_DEFINITIONS = frozenset({"function_definition", "class_definition"})


def _python_definition_nodes(root: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The nodes the Python definition query captures, in a tree without errors, found by
    walking the statements only (the query visits every node of the tree, in C, but that
    costs more than this walk in Python over the statements)."""
    found: list[tree_sitter.Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in _PYTHON_DEFINITIONS:
            found.append(node)
        if kind in _PYTHON_BLOCKS:
            stack.extend(node.children)
    return found
