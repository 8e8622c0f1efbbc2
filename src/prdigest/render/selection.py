"""Which files, symbols and excerpts a report shows: shared by the narrator and the builder so
the prose and the structure always talk about the same things."""

from __future__ import annotations

from prdigest.models.facts import CodeExcerpt, Facts, FileFact, SymbolChange
from prdigest.models.narrative import Length

MAX_KEY_FILES = {"full": 8, "brief": 5}
MAX_EXCERPTS = {"full": 3, "brief": 1}
MAX_SYMBOLS = {"full": 20, "brief": 8}


def key_files(facts: Facts, length: Length) -> list[FileFact]:
    """The files the analyzers marked key; when none are marked, the largest non-generated ones."""
    chosen = facts.files.key_files()
    if not chosen:
        candidates = [f for f in facts.files.files if not f.generated] or list(facts.files.files)
        chosen = sorted(candidates, key=lambda f: -(f.additions + f.deletions))
    return chosen[: MAX_KEY_FILES[length]]


def key_symbols(facts: Facts, length: Length) -> list[SymbolChange]:
    seen: set[tuple[str, str]] = set()
    unique = []
    for symbol in facts.symbols.symbols:
        if (symbol.path, symbol.name) not in seen:
            seen.add((symbol.path, symbol.name))
            unique.append(symbol)
    return unique[: MAX_SYMBOLS[length]]


def key_excerpts(facts: Facts, length: Length) -> list[CodeExcerpt]:
    return facts.symbols.excerpts[: MAX_EXCERPTS[length]]
