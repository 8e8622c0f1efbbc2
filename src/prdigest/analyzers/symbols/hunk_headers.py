"""Fallback when only a patch exists: infer changed symbols from the hunks themselves.

Two clues are used: git's function context after the second ``@@`` (the line before the
hunk that looks like a definition) and definition lines (``def``, ``class``, ``fn``,
``func``, ``function``, C signatures) among the hunk's lines. Indentation tells which
definition a changed line belongs to. This is a heuristic by nature (a one-line
signature regex per language), so results carry ``method="hunk-header"``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from prdigest.analyzers.symbols.languages import GRAMMARS
from prdigest.diff import Hunk
from prdigest.models.facts import ChangeKind, SymbolChange, SymbolKind

# Regexes only look at the start of a line; this bound keeps them linear on minified code.
_MAX_LINE = 300

_IDENT = r"[A-Za-z_]\w*"
_JS_IDENT = r"[A-Za-z_$][\w$]*"
_JS_PREFIX = r"^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:declare[ \t]+)?"
_RUST_PREFIX = (
    r"^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?"
    r"(?:(?:const|async|unsafe|default)[ \t]+|extern[ \t]+(?:\"[^\"]*\"[ \t]+)?)*"
)
_C_NOT_NAMES = frozenset(
    {
        *("if", "for", "while", "switch", "return", "sizeof", "catch", "else", "do", "case"),
        *("new", "delete", "defined", "static_assert", "decltype", "alignof", "alignas"),
        *("throw", "goto", "typeof", "__attribute__", "__declspec"),
    }
)
_C_NOT_PREFIX = frozenset(
    {"return", "else", "new", "delete", "throw", "case", "goto", "co_return", "co_await", "co_yield"}
)
_JS_NOT_NAMES = frozenset({"if", "for", "while", "switch", "catch", "function", "return", "with", "super"})


@dataclass(frozen=True)
class _Pattern:
    regex: re.Pattern[str]
    kind: SymbolKind
    container: bool  # methods defined inside are qualified with this name


def _p(regex: str, kind: SymbolKind, container: bool = False) -> _Pattern:
    return _Pattern(re.compile(regex), kind, container)


_PATTERNS: dict[str, tuple[_Pattern, ...]] = {
    "python": (
        _p(rf"^[ \t]*(?:async[ \t]+)?def[ \t]+(?P<name>{_IDENT})", "function"),
        _p(rf"^[ \t]*class[ \t]+(?P<name>{_IDENT})", "class", True),
    ),
    "go": (
        _p(
            rf"^func[ \t]*\([^)]*?\*?[ \t]*(?P<recv>{_IDENT})(?:\[[^\]]*\])?[ \t]*\)[ \t]*(?P<name>{_IDENT})",
            "method",
        ),
        _p(rf"^func[ \t]+(?P<name>{_IDENT})", "function"),
        _p(rf"^type[ \t]+(?P<name>{_IDENT})(?:\[[^\]]*\])?[ \t]+struct\b", "struct"),
        _p(rf"^type[ \t]+(?P<name>{_IDENT})(?:\[[^\]]*\])?[ \t]+interface\b", "interface"),
    ),
    "rust": (
        _p(rf"{_RUST_PREFIX}fn[ \t]+(?P<name>{_IDENT})", "function"),
        _p(rf"{_RUST_PREFIX}(?:struct|union)[ \t]+(?P<name>{_IDENT})", "struct"),
        _p(rf"{_RUST_PREFIX}enum[ \t]+(?P<name>{_IDENT})", "enum"),
        _p(rf"{_RUST_PREFIX}trait[ \t]+(?P<name>{_IDENT})", "trait", True),
        _p(
            r"^[ \t]*(?:unsafe[ \t]+)?impl(?:<[^>]*>)?[ \t]+"
            r"(?:(?P<trait>[\w:]+(?:<[^>]*>)?)[ \t]+for[ \t]+)?(?P<name>[\w:]+)",
            "impl",
            True,
        ),
    ),
    "js": (
        _p(rf"{_JS_PREFIX}(?:async[ \t]+)?function\b[ \t]*\*?[ \t]*(?P<name>{_JS_IDENT})", "function"),
        _p(rf"{_JS_PREFIX}(?:abstract[ \t]+)?class[ \t]+(?P<name>{_JS_IDENT})", "class", True),
        _p(
            rf"{_JS_PREFIX}(?:const|let|var)[ \t]+(?P<name>{_JS_IDENT})[ \t]*(?::[^=]*)?="
            r"[ \t]*(?:async[ \t]+)?"
            rf"(?:function\b|\([^)]*\)[ \t]*(?::[^=]*)?=>|{_JS_IDENT}[ \t]*=>)",
            "function",
        ),
        _p(rf"{_JS_PREFIX}interface[ \t]+(?P<name>{_JS_IDENT})", "interface"),
        _p(rf"{_JS_PREFIX}(?:const[ \t]+)?enum[ \t]+(?P<name>{_JS_IDENT})", "enum"),
        _p(
            r"^[ \t]+(?:(?:public|private|protected|static|async|readonly|override|get|set)[ \t]+)*"
            rf"(?P<name>#?{_JS_IDENT})[ \t]*(?:<[^>()]*>)?\([^;]*\{{[ \t]*$",
            "method",
        ),
    ),
    "c": (
        _p(
            rf"^[ \t]*(?:template[ \t]*<[^>]*>[ \t]*)?(?:class|struct|union)[ \t]+(?P<name>{_IDENT})[^;()]*$",
            "class",
            True,
        ),
        _p(rf"^[ \t]*enum(?:[ \t]+(?:class|struct))?[ \t]+(?P<name>{_IDENT})[^;()]*$", "enum"),
        _p(
            r"^[ \t]*(?P<prefix>[A-Za-z_][\w:<>,*& \t]*?[ \t*&])?"
            r"(?P<name>~?[A-Za-z_]\w*(?:::~?[A-Za-z_]\w*)*|operator[^\w\s(]+)[ \t]*\([^;]*$",
            "function",
        ),
    ),
}


@dataclass(frozen=True)
class _Match:
    name: str
    kind: SymbolKind
    container: bool
    qualify: bool  # whether an enclosing definition's name prefixes this one


def _match_definition(text: str, family: str) -> _Match | None:
    line = text[:_MAX_LINE]
    for pattern in _PATTERNS[family]:
        found = pattern.regex.match(line)
        if found is None:
            continue
        name = found.group("name")
        groups = found.groupdict()
        if family == "c" and pattern.kind == "function":
            prefix_words = set((groups.get("prefix") or "").split())
            if name.rsplit("::", 1)[-1] in _C_NOT_NAMES or prefix_words & _C_NOT_PREFIX:
                continue
            if not groups.get("prefix") and "::" not in name:
                continue  # a bare call such as ``foo(a,`` rather than a definition
            return _Match(name, "method" if "::" in name else "function", False, "::" not in name)
        if family == "js" and pattern.kind == "method" and name in _JS_NOT_NAMES:
            continue
        if groups.get("recv"):
            return _Match(f"{groups['recv']}.{name}", "method", False, False)
        if pattern.kind == "impl":
            trait = groups.get("trait")
            return _Match(f"{trait} for {name}" if trait else name, "impl", True, False)
        return _Match(name, pattern.kind, pattern.container, True)
    return None


@dataclass
class _Seen:
    kind: SymbolKind
    added_def: bool = False
    removed_def: bool = False
    context_def: bool = False
    body_changed: bool = False
    new_line: int | None = None
    old_line: int | None = None

    def change(self) -> ChangeKind | None:
        if not (self.added_def or self.removed_def or self.body_changed):
            return None
        if self.added_def and not self.removed_def and not self.context_def:
            return "added"
        if self.removed_def and not self.added_def and not self.context_def:
            return "removed"
        return "modified"


@dataclass(frozen=True)
class _Open:
    indent: int
    name: str
    kind: SymbolKind
    container: bool
    scope: str  # what nested definitions are qualified with (an impl's type, a class name)


def _indent(text: str) -> int:
    expanded = text.expandtabs(8)
    return len(expanded) - len(expanded.lstrip(" "))


def symbols_from_hunks(path: str, hunks: Sequence[Hunk], grammar_key: str) -> list[SymbolChange]:
    """Changed symbols of one file inferred from its hunks alone (no file contents)."""
    grammar = GRAMMARS[grammar_key]
    family, separator = grammar.family, grammar.separator
    seen: dict[tuple[str, str], _Seen] = {}

    def note(name: str, kind: SymbolKind) -> _Seen:
        return seen.setdefault((name, kind), _Seen(kind))

    for hunk in hunks:
        stack: list[_Open] = []
        header = _match_definition(hunk.section_header, family) if hunk.section_header else None
        if header is not None:
            stack.append(
                _Open(
                    _indent(hunk.section_header),
                    header.name,
                    header.kind,
                    header.container,
                    _scope_of(header),
                )
            )
        for line in hunk.lines:
            if not line.text.strip():
                continue
            indent = _indent(line.text)
            closer = line.text.lstrip()[:1] in (")", "]", "}", "{")
            while stack and (stack[-1].indent > indent or (stack[-1].indent == indent and not closer)):
                stack.pop()
            found = _match_definition(line.text, family)
            if found is None:
                if line.kind != " " and stack:
                    note(stack[-1].name, stack[-1].kind).body_changed = True
                continue
            name, kind = found.name, found.kind
            outer = stack[-1] if stack else None
            if outer is not None and found.qualify and (outer.container or family == "python"):
                name = f"{outer.scope}{separator}{name}"
                if kind == "function" and outer.container:
                    kind = "method"
            record = note(name, kind)
            if line.kind == "+":
                record.added_def = True
            elif line.kind == "-":
                record.removed_def = True
            else:
                record.context_def = True
            if line.kind != "-" and record.new_line is None:
                record.new_line = line.new_line
            if line.kind == "-" and record.old_line is None:
                record.old_line = line.old_line
            stack.append(_Open(indent, name, kind, found.container, _scope_of(found, name)))

    language = grammar.language
    result: list[SymbolChange] = []
    for (name, _), record in seen.items():
        change = record.change()
        if change is None:
            continue
        start = record.old_line if change == "removed" else record.new_line
        result.append(
            SymbolChange(
                path=path,
                name=name,
                kind=record.kind,
                change=change,
                language=language,
                start_line=start,
                end_line=None,
                method="hunk-header",
            )
        )
    return result


def _scope_of(found: _Match, qualified: str | None = None) -> str:
    """The name nested definitions are qualified with: an impl's type, else the definition."""
    if found.kind == "impl":
        return found.name.rsplit(" for ", 1)[-1]
    return qualified or found.name
