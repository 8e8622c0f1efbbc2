"""Building blocks of implementation steps: a step with a short form for merging, the PR
body's reason for a step, and files and symbols written as short lists."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from prdigest.analyzers.symbol_names import is_private
from prdigest.facts_view.selection import GENERIC_NAMES, short_name
from prdigest.models.facts import FileFact, SymbolChange
from prdigest.models.narrative import ImplementationStep, Length
from prdigest.narrate.extractive.text import covered_by, is_generated_subject, sentences, shorten
from prdigest.words import Phrases

MAX_FILES_PER_STEP = {"full": 4, "brief": 2}
MAX_SYMBOLS_PER_FILE = {"full": 3, "brief": 2}
WHY_CHARS = {"full": 220, "brief": 150}
_MIN_NEEDLE = 5  # shorter names ("run", "main") would match unrelated sentences


@dataclass
class Part:
    """One step; `clause` is its short form when several steps are merged into one."""

    title: str
    detail: str
    clause: str
    weight: int = 0  # source steps: changed lines, key files counted double

    def step(self) -> ImplementationStep:
        return ImplementationStep(title=self.title, detail=self.detail)


def merge_parts(parts: list[Part], title: str, ph: Phrases, limit: int = 0) -> Part:
    """`parts` as one step; `limit` > 0 keeps that many clauses and counts the rest."""
    shown = [p.clause for p in parts]
    if 0 < limit < len(shown):
        shown = [*shown[:limit], ph.say("steps", "more_changes", count=len(shown) - limit)]
    clauses = ph.tables["quote"]["clause_sep"].join(shown)
    # The clauses start with module names and paths, spelled as they are.
    return Part(title=title, detail=ph.sentence(clauses, capitalize=False), clause=clauses)


class WhyFinder:
    """Finds the PR body's sentence about a step; each sentence is quoted at most once."""

    def __init__(self, paragraphs: list[str], length: Length, ph: Phrases) -> None:
        self._sentences = [s for s in sentences(paragraphs) if len(s) >= 25 and not is_generated_subject(s)]
        self._used: set[str] = set()
        self._limit = WHY_CHARS[length]
        self._ph = ph

    def use(self, sentence: str) -> None:
        self._used.add(sentence)

    def sentence_for(self, needles: list[str]) -> str:
        if not self._sentences:
            return ""  # nothing to quote: no pattern to build (most of finding none)
        wanted = [n.lower() for n in dict.fromkeys(needles) if len(n) >= _MIN_NEEDLE]
        if not wanted:
            return ""
        # Whole names only: `fused_moe` must not match `test_fused_moe.py`.
        pattern = re.compile(r"(?<![\w])(?:" + "|".join(re.escape(n) for n in wanted) + r")(?![\w])")
        for sentence in self._sentences:
            lowered = sentence.lower()
            if sentence not in self._used and not self._said(sentence) and pattern.search(lowered):
                self._used.add(sentence)
                return shorten(sentence, self._limit)
        return ""

    def _said(self, sentence: str) -> bool:
        # A used quote may be a sentence with its continuation ("… by: Deriving …").
        return any(covered_by(sentence, used) for used in self._used)

    def clause_for(self, needles: list[str]) -> str:
        found = self.sentence_for(needles)
        return self._ph.say("steps", "why", quote=self._ph.quote(found)) if found else ""


def with_why(detail: str, why: str, ph: Phrases) -> str:
    return ph.sentences([detail, why]) if why else ph.sentence(detail)


def needles(files: list[FileFact], symbols: list[SymbolChange]) -> list[str]:
    """Words a sentence about these files would contain: symbol and file names."""
    found: list[str] = []
    for symbol in symbols:
        last = symbol.name.replace("::", ".").split(".")[-1]
        if "_" in last.strip("_") or any(c.isupper() for c in last[1:]) or len(last) >= 8:
            found.append(last)
    for file in files:
        base = posixpath.basename(file.path)
        found.append(base)
        stem = base.rsplit(".", 1)[0]
        if "_" in stem or "-" in stem:
            found.append(stem)
    return found


def join_more(items: list[str], hidden: int, ph: Phrases) -> str:
    """``a、b 等 5 项`` (zh counts all) / ``a, b and 3 more`` (en counts the rest)."""
    joined = ph.join(items)
    if hidden <= 0:
        return joined
    return ph.say("steps", "and_more", items=joined, count=hidden, total=hidden + len(items))


def weight_of(files: list[FileFact]) -> int:
    return sum((f.additions + f.deletions) * (2 if f.is_key else 1) for f in files)


def ranked(symbols: list[SymbolChange]) -> list[SymbolChange]:
    """Public before private, removed and modified before added; duplicates dropped."""
    order = {"removed": 0, "modified": 1, "added": 2}
    seen: set[str] = set()
    unique = []
    for symbol in symbols:
        if symbol.name not in seen:
            seen.add(symbol.name)
            unique.append(symbol)
    return sorted(
        unique, key=lambda s: (is_private(s.name, s.language) or s.name in GENERIC_NAMES, order.get(s.change, 1))
    )


def names(symbols: list[SymbolChange], limit: int, ph: Phrases) -> str:
    """```a`、`b` 等 3 项``: at most `limit` names (all of them when only one more remains)."""
    shown = ranked(symbols)
    if len(shown) <= limit + 1:
        return ph.join([ph.code(short_name(s.name)) for s in shown])
    return join_more([ph.code(short_name(s.name)) for s in shown[:limit]], len(shown) - limit, ph)


def symbol_changes(symbols: list[SymbolChange], ph: Phrases, limit: int = 5) -> str:
    """``adds `A`, `B`; removes `C``` grouped by change kind, public names first."""
    parts = []
    for change in ("removed", "modified", "added"):
        group = [s for s in symbols if s.change == change]
        if group:
            parts.append(ph.say("steps", f"symbols_{change}", names=names(group, limit, ph)))
    return ph.tables["quote"]["clause_sep"].join(parts)


def file_line(file: FileFact, symbols: list[SymbolChange], length: Length, ph: Phrases, edits: str = "") -> str:
    """One file in a step: its symbol changes and what the code change does (`edits`, in
    words); the line counts only when nothing says more."""
    limit = MAX_SYMBOLS_PER_FILE[length]
    if file.status in ("added", "removed"):
        key = f"file_{file.status}"
        line = ph.say("steps", key, path=file.path, additions=file.additions, deletions=file.deletions)
        if symbols:
            key = "defines" if file.status == "added" else "contained"
            line += ph.say("steps", key, names=names(symbols, limit, ph))
        if edits and file.status == "added":
            line += ph.say("steps", "added_edits", edits=edits)  # a new script's steps
        return line
    if edits:
        if not symbols:
            return ph.say("steps", "file_edits", path=file.path, edits=edits)
        return ph.say(
            "steps", "file_symbols_edits", path=file.path, symbols=symbol_changes(symbols, ph, limit), edits=edits
        )
    if not symbols:
        return ph.say("steps", "file_line", path=file.path, additions=file.additions, deletions=file.deletions)
    return ph.say(
        "steps",
        "file_symbols",
        path=file.path,
        symbols=symbol_changes(symbols, ph, limit),
        additions=file.additions,
        deletions=file.deletions,
    )


def shown_count(total: int, limit: int) -> int:
    """How many of `total` items a list names: `limit`, or all when only one would be left
    out ("and 1 more" says less in more words)."""
    return limit + 1 if total == limit + 1 else limit


def file_list(
    files: list[FileFact],
    symbols_by_path: dict[str, list[SymbolChange]],
    length: Length,
    ph: Phrases,
    edits_by_path: dict[str, str] | None = None,
) -> str:
    """The files one per clause, most changed first, at most MAX_FILES_PER_STEP."""
    edits = edits_by_path or {}
    limit = MAX_FILES_PER_STEP[length]
    ordered = sorted(files, key=lambda f: (not f.is_key, -(f.additions + f.deletions)))
    limit = shown_count(len(ordered), limit)
    lines = [file_line(f, symbols_by_path.get(f.path, []), length, ph, edits.get(f.path, "")) for f in ordered[:limit]]
    if len(ordered) > limit:
        lines.append(ph.say("steps", "more_files", count=len(ordered) - limit))
    return ph.tables["quote"]["clause_sep"].join(lines)


def files_by_status(
    files: list[FileFact],
    symbols_by_path: dict[str, list[SymbolChange]],
    length: Length,
    ph: Phrases,
    edits_by_path: dict[str, str] | None = None,
) -> str:
    """Non-source files summarised: new ones (with what they define, or the steps a script
    runs), deleted ones counted, changed ones listed (with what their change does, from
    `edits_by_path`)."""
    clauses: list[str] = []
    added = [f for f in files if f.status == "added"]
    removed = [f for f in files if f.status == "removed"]
    changed = [f for f in files if f.status not in ("added", "removed")]
    if added:
        clauses.append(file_list(added, symbols_by_path, length, ph, edits_by_path))
    if removed:
        if len(removed) <= 2:
            clauses.append(ph.say("steps", "removed_files", paths=ph.join([ph.code(f.path) for f in removed])))
        else:
            shown = [ph.code(f.path) for f in removed[:2]]
            clauses.append(ph.say("steps", "removed_many", count=len(removed), paths=ph.join(shown)))
    if changed:
        clauses.append(file_list(changed, symbols_by_path, length, ph, edits_by_path))
    return ph.tables["quote"]["clause_sep"].join(clauses)
