"""Source-code steps: code moved between files, the same change made in several files, then
one step per module, modules with key files and the most changed lines first."""

from __future__ import annotations

import posixpath
from collections import OrderedDict

from prdigest.analyzers.symbol_names import is_private
from prdigest.facts_view.selection import short_name
from prdigest.models.facts import FileFact, SymbolChange
from prdigest.models.narrative import Length
from prdigest.narrate.extractive.step_parts import (
    Part,
    WhyFinder,
    file_list,
    join_more,
    names,
    needles,
    ranked,
    symbol_changes,
    weight_of,
    with_why,
)
from prdigest.words import Phrases

MIN_MOVED = 1


def source_parts(
    files: list[FileFact],
    symbols_by_path: dict[str, list[SymbolChange]],
    length: Length,
    why: WhyFinder,
    ph: Phrases,
    edits_by_path: dict[str, str] | None = None,
) -> list[Part]:
    """`edits_by_path`: what each file's code change does, in words (`code_edits`)."""
    symbols = {f.path: list(symbols_by_path.get(f.path, [])) for f in files}
    parts = _moves(files, symbols, length, why, ph)
    parts.extend(_same_changes(files, symbols, length, why, ph))
    # A file whose every symbol was told above needs no second mention.
    told = {p for p in symbols if symbols_by_path.get(p) and not symbols[p]}
    rest = [f for f in files if f.path not in told]
    parts.extend(_modules(rest, symbols, length, why, ph, edits_by_path or {}))
    # Most changed lines (key files counting double) first; ties keep moves before the rest.
    return sorted(parts, key=lambda p: -p.weight)


def _moves(
    files: list[FileFact], symbols: dict[str, list[SymbolChange]], length: Length, why: WhyFinder, ph: Phrases
) -> list[Part]:
    """Symbols removed from one file and added under the same name to another."""
    removed: dict[str, str] = {}
    for path, found in symbols.items():
        for s in found:
            if s.change == "removed":
                removed.setdefault(short_name(s.name), path)
    moves: OrderedDict[tuple[str, str], list[SymbolChange]] = OrderedDict()
    for path, found in symbols.items():
        for s in found:
            source = removed.get(short_name(s.name))
            if s.change == "added" and source is not None and source != path:
                moves.setdefault((source, path), []).append(s)
    parts = []
    for (source, target), moved in moves.items():
        if len(moved) < MIN_MOVED:
            continue
        moved_names = {short_name(s.name) for s in moved}
        symbols[source] = [s for s in symbols[source] if short_name(s.name) not in moved_names]
        symbols[target] = [s for s in symbols[target] if short_name(s.name) not in moved_names]
        clause = ph.say(
            "steps",
            "moved",
            names=names(moved, 4 if length == "full" else 2, ph),
            source=ph.code(source),
            target=ph.code(target),
        )
        by_path = {f.path: f for f in files}
        reason = why.clause_for(needles([by_path[p] for p in (source, target) if p in by_path], moved))
        parts.append(
            Part(
                title=ph.say("steps", "moved_title", target=posixpath.basename(target)),
                detail=with_why(clause, reason, ph),
                clause=clause,
                weight=weight_of([by_path[p] for p in (source, target) if p in by_path]),
            )
        )
    return parts


def _same_changes(
    files: list[FileFact], symbols: dict[str, list[SymbolChange]], length: Length, why: WhyFinder, ph: Phrases
) -> list[Part]:
    """Files whose symbol changes are identical (the same hooks added to two packages)."""
    by_signature: OrderedDict[tuple[tuple[str, str], ...], list[FileFact]] = OrderedDict()
    for file in files:
        found = symbols.get(file.path, [])
        if found:
            signature = tuple(sorted({(short_name(s.name), s.change) for s in found}))
            by_signature.setdefault(signature, []).append(file)
    parts = []
    for group in by_signature.values():
        if len(group) < 2:
            continue
        found = symbols[group[0].path]
        modules = list(dict.fromkeys(ph.labels.module(f.module) for f in group))
        clause = ph.say(
            "steps",
            "same_change",
            paths=ph.join([ph.code(f.path) for f in group]),
            changes=symbol_changes(found, ph, 4 if length == "full" else 2),
        )
        reason = why.clause_for(needles(group, found))
        parts.append(
            Part(
                title=ph.say("steps", "module_title", module=ph.join(modules[:3])),
                detail=with_why(clause, reason, ph),
                clause=clause,
                weight=weight_of(group),
            )
        )
        for file in group:
            symbols[file.path] = []
    return parts


def _modules(
    files: list[FileFact],
    symbols: dict[str, list[SymbolChange]],
    length: Length,
    why: WhyFinder,
    ph: Phrases,
    edits_by_path: dict[str, str],
) -> list[Part]:
    by_module: OrderedDict[str, list[FileFact]] = OrderedDict()
    for file in files:
        by_module.setdefault(file.module, []).append(file)

    parts = []
    for module, group in by_module.items():
        label = ph.labels.module(module)
        key = "module_added_title" if all(f.status == "added" for f in group) else "module_title"
        detail = file_list(group, symbols, length, ph, edits_by_path)
        found = [s for f in group for s in symbols.get(f.path, [])]
        reason = why.clause_for(needles(group, found))
        clause = ph.say("steps", "module_clause", module=label, files=_short_files(group, found, ph))
        parts.append(
            Part(
                title=ph.say("steps", key, module=label),
                detail=with_why(detail, reason, ph),
                clause=clause,
                weight=weight_of(group),
            )
        )
    return parts


def _short_files(files: list[FileFact], found: list[SymbolChange], ph: Phrases) -> str:
    """A module in a few words for a merged step: two files and its first public symbols."""
    paths = join_more([ph.code(f.path) for f in files[:2]], len(files) - 2, ph)
    public = [s for s in ranked(found) if not is_private(s.name, s.language)]
    if not public:
        return paths
    return ph.say("steps", "files_symbols", files=paths, names=names(public, 2, ph))
