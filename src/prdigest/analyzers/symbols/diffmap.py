"""Map the changed lines of one file to the definitions that contain them.

A definition is reported when it is the innermost definition around an added line (new
file) or a removed line (old file); so a change inside a method names the method, not
also its class. Definitions are matched across the two files by (qualified name, kind):
only in the new file means added, only in the old one removed, both means modified.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from prdigest.analyzers.symbols.changed_lines import ChangedLines, changed_lines
from prdigest.analyzers.symbols.extract import (
    MAX_PARSE_CHARS,
    Definition,
    definitions_from_tree,
    encode_source,
    extract_definitions,
)
from prdigest.analyzers.symbols.hunk_headers import symbols_from_hunks
from prdigest.analyzers.symbols.incremental import apply_edits, hunks_match
from prdigest.analyzers.symbols.languages import GRAMMARS, grammar_key_for_path, parse
from prdigest.analyzers.symbols.py_definitions import PYTHON_DEFINITIONS
from prdigest.analyzers.symbols.tree_cache import TREES
from prdigest.diff import Hunk, file_diff
from prdigest.models.facts import ChangeKind, SymbolChange
from prdigest.models.pullrequest import FileChange, FileStatus

_Key = tuple[str, str]


def owning_definitions(definitions: list[Definition], lines: tuple[int, ...]) -> list[int]:
    """Indexes of the definitions that are innermost around at least one of ``lines`` (sorted)."""
    if not lines or not definitions:
        return []
    counts = [bisect_right(lines, d.end_line) - bisect_left(lines, d.start_line) for d in definitions]
    own = list(counts)
    for definition, count in zip(definitions, counts, strict=True):
        if definition.parent is not None:
            own[definition.parent] -= count
    return [i for i, value in enumerate(own) if value > 0]


def _has_contents(change: FileChange) -> bool:
    """Whether the contents needed for this status are there and small enough to parse."""
    before, after = change.content_before, change.content_after
    if change.status == FileStatus.ADDED:
        needed = [after]
    elif change.status == FileStatus.REMOVED:
        needed = [before]
    else:
        needed = [before, after]
    return all(text is not None and len(text) <= MAX_PARSE_CHARS for text in needed)


def _definitions_of_both(
    change: FileChange, grammar_key: str, hunks: Sequence[Hunk]
) -> tuple[list[Definition], list[Definition]]:
    """(old, new) definitions: a Python file's piece by piece when every piece of both sides
    reads so, else the new file parsed incrementally when the hunks allow it."""
    before = change.content_before if change.status != FileStatus.ADDED else None
    after = change.content_after if change.status != FileStatus.REMOVED else None
    if GRAMMARS[grammar_key].family == "python":
        by_pieces = _python_definitions(before, after, grammar_key)
        if by_pieces is not None:
            return by_pieces
    if not before or not after:
        old_defs = extract_definitions(before, grammar_key) if before else []
        new_defs = extract_definitions(after, grammar_key) if after else []
        return old_defs, new_defs
    before_bytes, after_bytes = encode_source(before), encode_source(after)
    cached_old, cached_new = TREES.get(grammar_key, before_bytes), TREES.get(grammar_key, after_bytes)
    if cached_old is not None:
        old_tree, old_defs = cached_old
    else:
        old_tree = parse(grammar_key, before_bytes)
        old_defs = definitions_from_tree(old_tree, grammar_key)  # before the edits move its nodes
        TREES.put(grammar_key, before_bytes, old_tree, old_defs)
    if cached_new is not None:
        return old_defs, cached_new[1]
    reuse = hunks_match(hunks, before, after) and apply_edits(old_tree, hunks, before_bytes, after_bytes)
    new_tree = parse(grammar_key, after_bytes, old_tree if reuse else None)
    new_defs = definitions_from_tree(new_tree, grammar_key)
    TREES.put(grammar_key, after_bytes, new_tree, new_defs)
    return old_defs, new_defs


def _python_definitions(
    before: str | None, after: str | None, grammar_key: str
) -> tuple[list[Definition], list[Definition]] | None:
    """(old, new) definitions read piece by piece; None when a side does not read so (then
    both sides take the whole-file path, whose incremental parse starts from the old tree)."""
    old_defs = PYTHON_DEFINITIONS.definitions(before, grammar_key) if before else []
    if old_defs is None:
        return None
    new_defs = PYTHON_DEFINITIONS.definitions(after, grammar_key) if after else []
    if new_defs is None:
        return None
    return old_defs, new_defs


def symbols_from_contents(
    change: FileChange, grammar_key: str, hunks: Sequence[Hunk], lines: ChangedLines
) -> list[SymbolChange]:
    """Changed symbols of one file from its parsed old and new contents."""
    language = GRAMMARS[grammar_key].language
    old_defs, new_defs = _definitions_of_both(change, grammar_key, hunks)
    new_owners = owning_definitions(new_defs, lines.added)
    old_owners = owning_definitions(old_defs, lines.removed)
    # Only the owners' names are looked up on the other side: a file has many definitions
    # and a change few owners, so the keys of the others are not made.
    wanted = {old_defs[i].name for i in old_owners}
    new_by_key: dict[_Key, Definition] = {}
    for definition in new_defs:
        if definition.name in wanted:
            new_by_key.setdefault((definition.name, definition.kind), definition)
    wanted = {new_defs[i].name for i in new_owners}
    old_keys = {(d.name, d.kind) for d in old_defs if d.name in wanted}

    found: dict[_Key, SymbolChange] = {}
    for index in new_owners:
        definition = new_defs[index]
        key = (definition.name, definition.kind)
        change_kind: ChangeKind = "modified" if key in old_keys else "added"
        found.setdefault(key, _symbol(change.path, definition, change_kind, language))
    for index in old_owners:
        definition = old_defs[index]
        key = (definition.name, definition.kind)
        if key in found:
            continue
        counterpart = new_by_key.get(key)
        if counterpart is not None:
            found[key] = _symbol(change.path, counterpart, "modified", language)
        else:
            found[key] = _symbol(change.path, definition, "removed", language)
    return sorted(found.values(), key=lambda s: (s.start_line or 0, s.name))


def _symbol(path: str, definition: Definition, change: ChangeKind, language: str) -> SymbolChange:
    return SymbolChange(
        path=path,
        name=definition.name,
        kind=definition.kind,
        change=change,
        language=language,
        start_line=definition.start_line,
        end_line=definition.end_line,
        method="tree-sitter",
        exported=definition.exported,
    )


def extract_symbol_changes(change: FileChange, hunks: Sequence[Hunk] | None = None) -> list[SymbolChange]:
    """Changed symbols of one file: from contents when present, else from the patch alone.

    ``hunks`` may be passed when the caller already parsed ``change.patch``.
    """
    grammar_key = grammar_key_for_path(change.path)
    if grammar_key is None or change.binary or not change.patch:
        return []
    if hunks is None:
        hunks = file_diff(change).numbered_hunks
    lines = changed_lines(hunks)
    if not lines:  # nothing to attribute: do not pay for a parse
        return []
    if _has_contents(change):
        return symbols_from_contents(change, grammar_key, hunks, lines)
    return symbols_from_hunks(change.path, hunks, grammar_key)
