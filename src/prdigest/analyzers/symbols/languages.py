"""Which tree-sitter grammar reads which file, loaded offline from the grammar wheels.

Language and query objects are immutable once built, so they are cached per process;
parsers are cheap (microseconds) and made per parse, which keeps threads independent.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import tree_sitter
import tree_sitter_c
import tree_sitter_cpp
import tree_sitter_cuda
import tree_sitter_go
import tree_sitter_javascript
import tree_sitter_python
import tree_sitter_rust
import tree_sitter_typescript


@dataclass(frozen=True)
class Grammar:
    """One grammar: the public language name it reports and how to load it."""

    language: str  # reported in facts: python, c, cpp, cuda, go, rust, javascript, typescript
    family: str  # which definition rules apply: python, c, go, rust, js
    load: Callable[[], object]
    separator: str  # joins qualified names: HummingConfig.__init__, Foo::bar


_C_FAMILY_DEFS = """
(function_definition) @def
(class_specifier name: (_) body: (_)) @def
(struct_specifier name: (_) body: (_)) @def
(union_specifier name: (_) body: (_)) @def
(enum_specifier name: (_) body: (_)) @def
(namespace_definition body: (_)) @scope
"""
_C_DEFS = """
(function_definition) @def
(struct_specifier name: (_) body: (_)) @def
(union_specifier name: (_) body: (_)) @def
(enum_specifier name: (_) body: (_)) @def
"""
_JS_DEFS = """
(function_declaration) @def
(generator_function_declaration) @def
(class_declaration) @def
(method_definition) @def
(variable_declarator name: (identifier) value: [(arrow_function) (function_expression)]) @def
(field_definition property: (_) value: [(arrow_function) (function_expression)]) @def
(assignment_expression left: (member_expression) right: [(arrow_function) (function_expression)]) @def
"""
_TS_DEFS = """
(function_declaration) @def
(generator_function_declaration) @def
(class_declaration) @def
(abstract_class_declaration) @def
(method_definition) @def
(variable_declarator name: (identifier) value: [(arrow_function) (function_expression)]) @def
(public_field_definition name: (_) value: [(arrow_function) (function_expression)]) @def
(assignment_expression left: (member_expression) right: [(arrow_function) (function_expression)]) @def
(interface_declaration) @def
(enum_declaration) @def
(internal_module body: (_)) @scope
"""

# Query text per grammar key: what counts as a definition (@def) or only a naming scope (@scope).
DEFINITION_QUERIES: dict[str, str] = {
    "python": "(function_definition) @def (class_definition) @def",
    "c": _C_DEFS,
    "cpp": _C_FAMILY_DEFS,
    "cuda": _C_FAMILY_DEFS,
    "go": "(function_declaration) @def (method_declaration) @def (type_spec) @def",
    "rust": """
(function_item) @def
(struct_item) @def
(enum_item) @def
(union_item) @def
(trait_item) @def
(impl_item) @def
(mod_item body: (_)) @scope
""",
    "javascript": _JS_DEFS,
    "typescript": _TS_DEFS,
    "tsx": _TS_DEFS,
}

GRAMMARS: dict[str, Grammar] = {
    "python": Grammar("python", "python", tree_sitter_python.language, "."),
    "c": Grammar("c", "c", tree_sitter_c.language, "::"),
    "cpp": Grammar("cpp", "c", tree_sitter_cpp.language, "::"),
    "cuda": Grammar("cuda", "c", tree_sitter_cuda.language, "::"),
    "go": Grammar("go", "go", tree_sitter_go.language, "."),
    "rust": Grammar("rust", "rust", tree_sitter_rust.language, "::"),
    "javascript": Grammar("javascript", "js", tree_sitter_javascript.language, "."),
    "typescript": Grammar("typescript", "js", tree_sitter_typescript.language_typescript, "."),
    "tsx": Grammar("typescript", "js", tree_sitter_typescript.language_tsx, "."),
}

# File extension -> grammar key. Headers go to C++: its grammar also reads plain C headers.
_EXTENSIONS: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".c": "c",
    ".h": "cpp",
    ".hh": "cpp",
    ".hpp": "cpp",
    ".hxx": "cpp",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".inl": "cpp",
    ".cu": "cuda",
    ".cuh": "cuda",
    ".go": "go",
    ".rs": "rust",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
}


def grammar_key_for_path(path: str) -> str | None:
    """The grammar key for a file path, or None when no supported language reads it."""
    _, ext = os.path.splitext(path)
    return _EXTENSIONS.get(ext.lower())


def language_for_path(path: str) -> str | None:
    """The public language name (as reported in facts) for a path, or None."""
    key = grammar_key_for_path(path)
    return GRAMMARS[key].language if key is not None else None


@cache
def tree_sitter_language(key: str) -> tree_sitter.Language:
    return tree_sitter.Language(GRAMMARS[key].load())


@cache
def definition_query(key: str) -> tree_sitter.Query:
    return tree_sitter.Query(tree_sitter_language(key), DEFINITION_QUERIES[key])


def parse(key: str, source: bytes, old_tree: tree_sitter.Tree | None = None) -> tree_sitter.Tree:
    """Parse source bytes with the grammar ``key``; tree-sitter tolerates syntax errors.

    ``old_tree``, already edited to match ``source``, lets tree-sitter reuse unchanged parts.
    """
    parser = tree_sitter.Parser(tree_sitter_language(key))
    return parser.parse(source) if old_tree is None else parser.parse(source, old_tree)
