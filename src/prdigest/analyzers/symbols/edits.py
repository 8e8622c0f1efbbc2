"""What a code change does, statement by statement: `CodeEdit` facts a report can say in words
("a try/except import guard replaced by a platform check", "`@requires_auth` applied to 16
functions", "`connect()` gained the parameter `timeout`") instead of "+N/−M".

Python files whose both sides parse are compared as syntax trees (`ast`): per function its
parameters, decorators, assertions, raised exceptions, caught exceptions and the calls it
makes as statements; module- and class-level constants; import guards and platform checks.
Every file is also read line by line from the shared diff model: a regular expression
(Python ``re``, ``sed s/…/…/``, ``grep -E``) changed on a line, an assertion removed or added
(C, C++, Rust, JavaScript assertion macros and functions). Shell scripts are read as steps
(`shell_steps`), CI files as jobs and steps (`ci_steps`), and the calls of Go, Rust,
JavaScript and TypeScript definitions from their syntax trees (`tree_calls`). Nothing here
guesses intent: each edit is a difference between the two sides.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from prdigest.analyzers.dependencies.rewrites import rewrites_in_line
from prdigest.analyzers.evidence_text import up_to_closing_bracket
from prdigest.analyzers.regex_direction import regex_direction
from prdigest.analyzers.symbol_names import has_private_part
from prdigest.analyzers.symbols.changed_lines import changed_lines
from prdigest.analyzers.symbols.ci_steps import ci_edits, is_ci_yaml
from prdigest.analyzers.symbols.languages import grammar_key_for_path
from prdigest.analyzers.symbols.py_outline import Outline, called_anywhere, imports_under
from prdigest.analyzers.symbols.py_pieces import PYTHON
from prdigest.analyzers.symbols.shell_steps import shell_edits
from prdigest.analyzers.symbols.tree_calls import SideCalls
from prdigest.diff import Line, file_diff
from prdigest.models.facts import CodeEdit, CodeEditKind
from prdigest.models.pullrequest import FileChange

MAX_EDITS = 12  # per PR: a report names a few, the most telling
# Where statement calls are compared from tree-sitter trees (Python: by `ast`, above). Not C and
# C++: their headers are large and often parse with errors (macros), so reading them again
# would cost more than the symbol analysis itself.
CALL_GRAMMARS = frozenset({"go", "rust", "javascript", "typescript", "tsx"})
MAX_FILE_EDITS = 8  # per PR, of shell scripts and CI files
_CLIP = 80

_PY_REGEX = re.compile(
    r"\bre\.(?:compile|match|search|fullmatch|sub|subn|split|findall|finditer)\(\s*[rRbB]{0,2}(?P<q>['\"])(?P<re>.+?)(?P=q)"
)
_SED_REGEX = re.compile(r"\bsed\b[^'\"]*(?P<q>['\"])s(?P<d>[/|#,:])(?P<re>.+?)(?P=d)")
_GREP_REGEX = re.compile(r"\bgrep\s+(?:-\w*[EP]\w*\s+)+(?P<q>['\"])(?P<re>.+?)(?P=q)")
_ASSERT_LINE = re.compile(
    r"^\s*(?:assert\b|static_assert\s*\(|assert!\s*\(|assert_eq!\s*\(|debug_assert!\s*\(|"
    r"TORCH_CHECK\s*\(|TORCH_INTERNAL_ASSERT\s*\(|CHECK(?:_[A-Z]+)?\s*\(|console\.assert\s*\(|assert\s*\()"
)
_COMMENT_LINE = re.compile(r"^\s*(?:#|//|/\*|\*|--)")
# A quoted string (kept as written) or a run of spacing (dropped) in a line of code.
_SPACING = re.compile(r"\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|\s+")


@dataclass
class _Found:
    edits: list[CodeEdit] = field(default_factory=list)

    def add(
        self,
        kind: CodeEditKind,
        path: str,
        *,
        symbol: str | None = None,
        line: int | None = None,
        **params: str,
    ) -> None:
        self.edits.append(CodeEdit(kind=kind, path=path, symbol=symbol, line=line, params=params))


def _clip(text: str, limit: int = _CLIP) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# --- Python, from the syntax trees --------------------------------------------------------


def _shown(value: object) -> str:
    """A constant's value as a reader writes it: strings without their quotes."""
    return _clip(value if isinstance(value, str) else repr(value))


def _python_edits(change: FileChange, found: _Found) -> bool:
    """Edits of a Python file from its two outlines; False when they are not both known."""
    if change.content_before is None or change.content_after is None:
        return False
    before_text, after_text = change.content_before, change.content_after
    before, after = PYTHON.outline(before_text), PYTHON.outline(after_text)
    if before is None or after is None:
        return False
    path = change.path
    _guard_edits(path, before, after, found, change.content_after)
    _constant_edits(path, before, after, found)
    old, new = before.functions(), after.functions()
    applied: dict[str, list[str]] = {}
    dropped: dict[str, list[str]] = {}
    call_changes: list[tuple[str, int, Sequence[str], Sequence[str]]] = []
    # (parameter, before, after) -> the functions whose default changed so: one edit for all
    defaults: dict[tuple[str, str, str], list[tuple[str, int]]] = {}
    for name, (line, fn) in new.items():
        known = old.get(name)
        if known is None:
            continue
        previous = known[1]
        if fn.same_apart_from_line(previous):
            continue  # most functions of a changed file: nothing below would find an edit
        for param in fn.params:
            if param not in previous.params:
                found.add("parameter-added", path, symbol=name, line=line, function=name, parameter=param)
        for param in previous.params:
            if param not in fn.params:
                found.add("parameter-removed", path, symbol=name, line=line, function=name, parameter=param)
        was = dict(previous.defaults)
        for param, default in fn.defaults:
            old_default = was.get(param)
            if old_default is not None and old_default != default:
                defaults.setdefault((param, _clip(old_default), _clip(default)), []).append((name, line))
        for decorator in fn.decorators:
            if decorator not in previous.decorators:
                applied.setdefault(decorator, []).append(name)
        for decorator in previous.decorators:
            if decorator not in fn.decorators:
                dropped.setdefault(decorator, []).append(name)
        for test in _gone(previous.asserts, fn.asserts):
            found.add("assertion-removed", path, symbol=name, line=line, code=_clip(test))
        for test in _gone(fn.asserts, previous.asserts):
            found.add("assertion-added", path, symbol=name, line=line, code=_clip(test))
        for exc in _absent(fn.raises, previous.raises):
            found.add("raise-added", path, symbol=name, line=line, exception=_clip(exc))
        for exc in _absent(previous.raises, fn.raises):
            found.add("raise-removed", path, symbol=name, line=line, exception=_clip(exc))
        for exc in _absent(fn.handlers, previous.handlers):
            found.add("exception-handler-added", path, symbol=name, line=line, exception=_clip(exc))
        for exc in _absent(previous.handlers, fn.handlers):
            found.add("exception-handler-removed", path, symbol=name, line=line, exception=_clip(exc))
        call_changes.append((name, line, previous.calls, fn.calls))
    for (param, was_default, default), places in defaults.items():
        # a public function names the edit when there is one (callers see its default)
        name, line = min(places, key=lambda place: has_private_part(place[0]))
        params = {"function": name, "parameter": param, "before": was_default, "after": default}
        found.edits.append(
            CodeEdit(kind="default-changed", path=path, symbol=name, line=line, params=params, count=len(places))
        )
    _call_edits(path, call_changes, found, lambda: called_anywhere(before_text), lambda: called_anywhere(after_text))
    for kind, table in (("decorator-applied", applied), ("decorator-removed", dropped)):
        for decorator, names in table.items():
            first = (new.get(names[0]) or old[names[0]])[0]
            edit = CodeEdit(
                kind=kind,  # type: ignore[arg-type]
                path=path,
                symbol=names[0],
                line=first,
                params={"decorator": _clip(decorator), "function": names[0]},
                count=len(names),
            )
            found.edits.append(edit)
    return True


def _call_edits(
    path: str,
    changes: Sequence[tuple[str, int, Sequence[str], Sequence[str]]],
    found: _Found,
    old_anywhere: Callable[[], Mapping[str, set[str]]],
    new_anywhere: Callable[[], Mapping[str, set[str]]],
) -> None:
    """Per (function, line, old calls, new calls): the statement calls it no longer makes and
    those it now makes, one edit for the functions that gained or lost the same calls. A call
    that went from a statement into an expression (``check(x)`` to ``ok = check(x)``) is still
    made: `old_anywhere` and `new_anywhere` (read only when needed) give every callee of each
    function on either side."""
    # (kind, callees) -> the functions that gained or lost those calls
    grouped: dict[tuple[str, tuple[str, ...]], list[tuple[str, int]]] = {}
    read: dict[str, Mapping[str, set[str]]] = {}

    def anywhere(side: str, name: str) -> set[str]:
        if side not in read:
            read[side] = old_anywhere() if side == "old" else new_anywhere()
        return read[side].get(name, set())

    for name, line, old, new in changes:
        for kind, gone_or_new in (
            ("call-removed", [c for c in _absent(_effect_calls(old), new) if c not in anywhere("new", name)]),
            ("call-added", [c for c in _absent(_effect_calls(new), old) if c not in anywhere("old", name)]),
        ):
            if gone_or_new:
                grouped.setdefault((kind, tuple(_clip(c + "()") for c in gone_or_new)), []).append((name, line))
    for (kind, callees), places in grouped.items():
        name, line = places[0]
        params = {
            "callee": callees[0],
            "callees": json.dumps(list(callees)),
            "function": name,
            "functions": json.dumps([n for n, _ in places]),
        }
        found.edits.append(
            CodeEdit(kind=kind, path=path, symbol=name, line=line, params=params, count=len(places))  # type: ignore[arg-type]
        )


def _tree_call_edits(change: FileChange, grammar_key: str, found: _Found) -> None:
    """The calls each changed definition of a Go, Rust, JavaScript or TypeScript file
    gained or lost, when both sides of the file are known."""
    if change.content_before is None or change.content_after is None:
        return
    lines = changed_lines(file_diff(change).numbered_hunks)
    before, after = SideCalls(change.content_before, grammar_key), SideCalls(change.content_after, grammar_key)
    names = before.touched(lines.removed) | after.touched(lines.added)
    if not names:
        return
    old, new = before.calls(names), after.calls(names)
    on_both_sides = {d.name for d in before.definitions} & {d.name for d in after.definitions}
    changes: list[tuple[str, int, Sequence[str], Sequence[str]]] = []
    # a definition whose every statement call went is in `old` only
    for name in [*new, *(n for n in old if n not in new)]:
        if name not in on_both_sides:
            continue
        line, new_calls = new.get(name) or (old[name][0], ())
        old_calls = old[name][1] if name in old else ()
        if old_calls != new_calls:
            changes.append((name, line, old_calls, new_calls))
    _call_edits(change.path, changes, found, lambda: before.anywhere, lambda: after.anywhere)


def _effect_calls(callees: Sequence[str]) -> list[str]:
    """The calls a reader of the function's behaviour cares about: a log line or a print
    added or dropped changes what is written, not what the function does."""
    kept = []
    for callee in callees:
        owner, _, method = callee.rpartition(".")
        if (
            callee in ("print", "println")
            or owner in ("console", "fmt")
            or (method in _LOG_METHODS and "log" in owner.lower())
        ):
            continue  # a line written to the console or a log
        kept.append(callee)
    return kept


_LOG_METHODS = frozenset(
    {"debug", "info", "warning", "warn", "error", "exception", "critical", "log", "Printf", "Println", "Print",
     "Debugf", "Infof", "Warnf", "Errorf"}
)  # fmt: skip


def _gone(before: Sequence[str], after: Sequence[str]) -> list[str]:
    """Items of `before` that `after` no longer has (as many times as they went), in order."""
    left = list(after)
    gone: list[str] = []
    for item in before:
        if item in left:
            left.remove(item)
        elif item not in gone:
            gone.append(item)
    return gone


def _absent(names: Sequence[str], other: Sequence[str]) -> list[str]:
    """Exception names of `names` that `other` has nowhere, in order: "now raises X" says the
    function did not raise X before, so a second `raise X` where one stood is no new raise."""
    return list(dict.fromkeys(name for name in names if name not in other))


def _guard_edits(path: str, before: Outline, after: Outline, found: _Found, text_after: str) -> None:
    old_guards, new_guards = before.guards(), after.guards()
    old_checks, new_checks = before.checks(), after.checks()
    added_checks = [(test, line) for test, line in new_checks.items() if test not in old_checks]
    gone = [(module, line) for module, line in old_guards.items() if module not in new_guards]
    # A guard is replaced by a check only where the check's branches import its module; a
    # check elsewhere in the file next to an import made unconditional replaces nothing.
    imported = _imported_by_checks(text_after, {test for test, _ in added_checks}) if gone and added_checks else {}
    for module, line in gone:
        match = next(
            (
                (test, check_line)
                for test, check_line in added_checks
                if any(m == module or m.startswith(f"{module}.") for m in imported.get(test, ()))
            ),
            None,
        )
        if match is not None:
            test, check_line = match
            found.add("import-guard-to-platform-check", path, line=check_line, module=module, check=_clip(test))
            added_checks.remove(match)
        else:
            found.add("import-guard-removed", path, line=line, module=module)
    for module, line in new_guards.items():
        if module not in old_guards:
            found.add("import-guard-added", path, line=line, module=module)
    for test, line in added_checks:
        found.add("platform-check-added", path, line=line, check=_clip(test))


def _imported_by_checks(text: str, tests: set[str]) -> dict[str, set[str]]:
    """For each `if` of `text` whose test (as `ast.unparse` writes it) is in `tests`: the
    modules its branches import."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return {}
    found: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (test := ast.unparse(node.test)) in tests:
            for statement in imports_under([*node.body, *node.orelse]):
                names = [a.name for a in statement.names] if isinstance(statement, ast.Import) else [statement.module]
                found.setdefault(test, set()).update(n for n in names if n)
    return found


def _constant_edits(path: str, before: Outline, after: Outline, found: _Found) -> None:
    old = before.constants()
    for name, (value, line) in after.constants().items():
        if name not in old or old[name][0] == value:
            continue
        previous = old[name][0]
        if isinstance(previous, list | tuple | set | frozenset) and isinstance(value, list | tuple | set | frozenset):
            # A list of names (``__all__``) is told by what joined and left it, not in full.
            added = [repr(v) if not isinstance(v, str) else v for v in value if v not in previous]
            removed = [repr(v) if not isinstance(v, str) else v for v in previous if v not in value]
            if added or removed:
                found.add(
                    "constant-items-changed",
                    path,
                    symbol=name,
                    line=line,
                    name=name,
                    added=_clip(", ".join(added)),
                    removed=_clip(", ".join(removed)),
                )
                continue
        found.add(
            "constant-changed", path, symbol=name, line=line, name=name, before=_shown(previous), after=_shown(value)
        )


# --- every language, from the diff lines ------------------------------------------------


def _regexes(text: str) -> list[str]:
    # Each pattern needs its word ("re.", "sed", "grep"): most lines have none, and are not searched.
    if "re." not in text and "sed" not in text and "grep" not in text:
        return []
    return [m.group("re") for pattern in (_PY_REGEX, _SED_REGEX, _GREP_REGEX) for m in pattern.finditer(text)]


def _line_edits(change: FileChange, found: _Found, python_done: bool) -> None:
    view = file_diff(change)
    for hunk in view.hunks:
        removed = [line for line in hunk.lines if line.kind == "-"]
        added = [line for line in hunk.lines if line.kind == "+"]
        removed_found = [(line, r) for line in removed for r in _regexes(line.text)]
        added_found = [(line, r) for line in added for r in _regexes(line.text)]
        added_regexes = {r for _line, r in added_found}
        removed_regexes = {r for _line, r in removed_found}
        olds = [(line, r) for line, r in removed_found if r not in added_regexes]
        news = [(line, r) for line, r in added_found if r not in removed_regexes]
        for (_, old), (new_line, new) in zip(olds, news, strict=False):
            found.add(
                "regex-changed",
                change.path,
                line=new_line.new_line,
                before=_clip(old),
                after=_clip(new),
                direction=regex_direction(old, new),
            )
        _rewrite_edits(change.path, removed, added, found)
        if python_done:
            continue  # the syntax trees already told assertions apart
        # An assertion is its whole statement without spacing: one only re-spaced or re-wrapped
        # (`TORCH_CHECK(x>0,` + `"m");` for `TORCH_CHECK(x > 0, "m");`) is neither removed nor added.
        old_asserts, new_asserts = _assertions(hunk.lines, "-"), _assertions(hunk.lines, "+")
        old_texts, new_texts = {text for _, text in old_asserts}, {text for _, text in new_asserts}
        for line, text in old_asserts:
            if text not in new_texts:
                found.add("assertion-removed", change.path, line=line.old_line, code=_clip(line.text))
        for line, text in new_asserts:
            if text not in old_texts:
                found.add("assertion-added", change.path, line=line.new_line, code=_clip(line.text))


def _assertions(lines: Sequence[Line], kind: str) -> list[tuple[Line, str]]:
    """The assertions starting on the hunk's `kind` lines, each with its statement (that line and
    the lines of its side after it, up to its closing bracket) without spacing outside strings."""
    side = [line for line in lines if line.kind in (kind, " ")]
    found: list[tuple[Line, str]] = []
    for index, line in enumerate(side):
        if line.kind != kind or not _ASSERT_LINE.match(line.text):
            continue
        statement = " ".join(up_to_closing_bracket(part.text for part in side[index:]))
        found.append((line, _SPACING.sub(lambda m: "" if m.group(0).isspace() else m.group(0), statement)))
    return found


def _rewrite_edits(path: str, removed: Sequence[Line], added: Sequence[Line], found: _Found) -> None:
    """A requirement rewritten by code (``req.replace("pkg[cu13]", "pkg[cu12]")``, a ``sed``
    line) that one side of the hunk has and the other not."""
    old = {r: line for line in removed for r in rewrites_in_line(line.text)}
    new = {r: line for line in added for r in rewrites_in_line(line.text)}
    for rewrite, line in new.items():
        if rewrite not in old:
            before, after = rewrite.describe().split(" -> ")
            found.add("requirement-rewrite-added", path, line=line.new_line, before=before, after=after)
    for rewrite, line in old.items():
        if rewrite not in new:
            before, after = rewrite.describe().split(" -> ")
            found.add("requirement-rewrite-removed", path, line=line.old_line, before=before, after=after)


def code_edits(files: list[FileChange], skip: set[str]) -> list[CodeEdit]:
    """The edits of every changed text file not in `skip` (generated files, tests), most
    telling first, at most `MAX_EDITS` of code and `MAX_FILE_EDITS` of scripts and CI files
    (each told in its own step: code edits do not crowd them out)."""
    found = _Found()
    steps: list[CodeEdit] = []
    for change in files:
        if change.path in skip or change.binary or not change.patch:
            continue
        python_done = change.path.endswith((".py", ".pyi")) and _python_edits(change, found)
        grammar_key = None if python_done else grammar_key_for_path(change.path)
        if grammar_key in CALL_GRAMMARS:
            _tree_call_edits(change, grammar_key, found)
        _line_edits(change, found, python_done)
        if is_ci_yaml(change.path):
            steps.extend(ci_edits(change))
        else:
            # a command whose change is a regex edit above is told once, by that edit
            told = {e.line for e in found.edits if e.path == change.path and e.line is not None}
            steps.extend(shell_edits(change, told))
    ordered = sorted(found.edits, key=lambda e: (_KIND_ORDER.index(e.kind), -e.count))[:MAX_EDITS]
    return ordered + sorted(steps, key=lambda e: -e.count)[:MAX_FILE_EDITS]


# Most telling first: what changes behaviour before what adjusts it.
_KIND_ORDER: list[CodeEditKind] = [
    "import-guard-to-platform-check",
    "assertion-removed",
    "raise-removed",
    "exception-handler-removed",
    "decorator-applied",
    "decorator-removed",
    "parameter-added",
    "parameter-removed",
    "default-changed",
    "requirement-rewrite-added",
    "requirement-rewrite-removed",
    "regex-changed",
    "constant-changed",
    "constant-items-changed",
    "import-guard-added",
    "import-guard-removed",
    "call-removed",
    "platform-check-added",
    "raise-added",
    "exception-handler-added",
    "call-added",
    "assertion-added",
]
