"""What a PR changes in substance, measured from its files, symbols and diff.

Substance is behaviour: lines of core-logic source that are not blank, comments or
docstrings; new modules; new public names; definitions moved between files without change.
Counting these, not raw +/−, keeps a copyright header, a reflowed docstring or a file move
from looking like a large change.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from prdigest.analyzers.behaviour import changed_lines
from prdigest.analyzers.data_lines import data_only_lines
from prdigest.analyzers.symbol_names import NAMED_VISIBILITY, is_public
from prdigest.analyzers.symbols.own_tests import TestSpans, in_spans, own_test_spans
from prdigest.diff import file_diff
from prdigest.models.facts import FileFact, FilesFacts, SymbolChange, SymbolsFacts
from prdigest.models.pullrequest import FileChange, PullRequest

NEW_MODULE_MIN_LINES = 80  # an added core file smaller than this is a helper, not a module


@dataclass(frozen=True)
class Substance:
    behaviour_lines: int = 0  # changed core-logic lines that are code, not comments or docstrings
    core_files: tuple[str, ...] = ()  # core-logic files with behaviour lines, most changed first
    new_modules: tuple[str, ...] = ()  # added core-logic files of real size, not moved code
    # names added in core files that a caller can reach by the language's own rule
    # (`symbol_names.is_public`; none where names do not tell), not nested in a function,
    # not moved ones
    public_added: tuple[str, ...] = ()
    moved: int = 0  # definitions removed in one core file and added under the same name (a leading _ aside) in another
    # other definitions added in core files that callers can or may reach (public names, and
    # those whose reach the file does not tell: a Rust trait impl's methods, C++), not moved
    added_new: int = 0
    comment_only_lines: int = 0  # changed core lines that are only comments/docstrings/blank
    message_lines: int = 0  # changed lines of core files whose change rewords only messages
    version_lines: int = 0  # version constants changed in files whose behaviour did not change
    data_lines: int = 0  # changed lines of a change that only edits literal data (`data_lines`)
    modules: tuple[str, ...] = ()
    categories: dict[str, int] = field(default_factory=dict)  # changed lines per file category

    @property
    def move_dominated(self) -> bool:
        """Most added definitions are moves: a restructuring, not new behaviour. (Counted
        against the definitions callers may reach, not only the public names: a Rust move
        beside a new trait's implementations is no restructuring alone.)"""
        return self.moved >= 3 and self.moved * 10 >= 7 * (self.added_new + self.moved)


def is_core(file: FileFact) -> bool:
    return file.category == "source" and file.type == "core-logic" and not file.generated and not file.binary


def measure(pr: PullRequest, files: FilesFacts, symbols: SymbolsFacts) -> Substance:
    core = {f.path: f for f in files.files if is_core(f)}
    per_file: Counter[str] = Counter()
    quiet = versions = messages = 0
    own_tests = {"+": own_test_spans(symbols.symbols, "+"), "-": own_test_spans(symbols.symbols, "-")}
    for change in pr.files:
        fact = core.get(change.path)
        if fact is None or not change.patch:
            continue
        counted = changed_lines(change, fact.language)
        if fact.messages_only:
            messages += counted.code  # prose in string literals: what it says, not what it does
        else:
            # A file's own tests (Rust `mod tests`) check the change; they are not its behaviour.
            per_file[change.path] += max(0, counted.code - _test_module_lines(change, own_tests))
        quiet += counted.quiet
        versions += counted.version
    data = data_only_lines((c, core[c.path].language) for c in pr.files if c.path in core) if per_file.total() else 0
    if data:
        per_file.clear()  # table entries, not logic: no line of behaviour
    moved_names = _moved_names(symbols, set(core))
    local = _local_names(symbols)
    # definitions the PR adds to the code, closures and moves aside
    fresh = [
        s
        for s in symbols.symbols
        if s.change == "added"
        and s.path in core
        and (s.path, s.name) not in local
        and _move_key(s.name) not in moved_names
    ]
    reachable = [s for s in fresh if is_public(s.name, s.kind, s.language, s.exported)]
    # nor a dunder among the public names: told by its class
    public = tuple(dict.fromkeys(s.name for s in reachable if not any(p.startswith("_") for p in s.name.split("."))))
    added_new = len({s.name for s in reachable} | {s.name for s in fresh if _reach_untold(s)})
    new_modules = tuple(
        f.path
        for f in core.values()
        if f.status == "added"
        and f.additions >= NEW_MODULE_MIN_LINES
        and not _mostly_moved(f.path, symbols, moved_names)
    )
    categories: Counter[str] = Counter()
    for f in files.files:
        categories[f.category] += f.additions + f.deletions
    ranked = tuple(path for path, lines in per_file.most_common() if lines > 0)
    return Substance(
        behaviour_lines=sum(per_file.values()),
        core_files=ranked,
        new_modules=new_modules,
        public_added=public,
        moved=len(moved_names),
        added_new=added_new,
        comment_only_lines=quiet,
        message_lines=messages,
        version_lines=versions,
        data_lines=data,
        modules=tuple(dict.fromkeys(core[p].module for p in ranked if core[p].module)),
        categories=dict(categories),
    )


def _test_module_lines(change: FileChange, sides: dict[str, TestSpans]) -> int:
    """Changed lines of code (not blank, not comments) inside the file's own test module, on
    the side each line belongs to (``sides``: `own_test_spans` per side)."""
    if change.path not in sides["+"] and change.path not in sides["-"]:
        return 0
    counted = 0
    for line in file_diff(change).changes():
        text = line.text.strip()
        if text and not text.startswith("//") and in_spans(sides.get(line.kind, {}), change.path, line.number):
            counted += 1
    return counted


def _reach_untold(symbol: SymbolChange) -> bool:
    """Whether a symbol's reach is not known: no name rule for its language and no keyword
    read (a method of a Rust trait impl, C and C++ definitions)."""
    return symbol.exported is None and symbol.language not in NAMED_VISIBILITY


def _local_names(symbols: SymbolsFacts) -> set[tuple[str, str]]:
    """(path, name) of definitions nested in a function or method: a closure such as a
    decorator's inner ``wrapper`` is reachable by no caller, so it is no public name."""
    callables = {(s.path, s.name) for s in symbols.symbols if s.kind in ("function", "method")}
    return {
        (s.path, s.name) for s in symbols.symbols if "." in s.name and (s.path, s.name.rsplit(".", 1)[0]) in callables
    }


def _move_key(name: str) -> str:
    """A definition's name as a move keeps it: its last part, with or without a leading
    underscore (a function moved and made private in the move is still moved)."""
    short = name.rsplit(".", 1)[-1]
    return short.lstrip("_") or short


def _moved_names(symbols: SymbolsFacts, core: set[str]) -> set[str]:
    """Names removed in one core file and added in another: moved definitions of the code
    (tests moved between test files restructure the tests, not the code)."""
    added: dict[str, set[str]] = {}
    removed: dict[str, set[str]] = {}
    for s in symbols.symbols:
        if s.path not in core:
            continue
        short = _move_key(s.name)
        if s.change == "added":
            added.setdefault(short, set()).add(s.path)
        elif s.change == "removed":
            removed.setdefault(short, set()).add(s.path)
    return {name for name, paths in added.items() if name in removed and removed[name] - paths}


def _mostly_moved(path: str, symbols: SymbolsFacts, moved: set[str]) -> bool:
    mine = [_move_key(s.name) for s in symbols.symbols if s.path == path and s.change == "added"]
    return bool(mine) and sum(1 for name in mine if name in moved) * 2 >= len(mine)
