"""Which files, symbols and excerpts a report shows: shared by the narrator and the builder so
the prose and the structure always talk about the same things."""

from __future__ import annotations

from prdigest.analyzers.symbol_names import in_test_module, is_private
from prdigest.models.facts import CodeExcerpt, Facts, FileFact, SymbolChange
from prdigest.models.narrative import Length

MAX_KEY_FILES = {"full": 8, "brief": 3}
MAX_EXCERPTS = {"full": 3, "brief": 0}  # a brief report shows no code
MAX_SYMBOLS = {"full": 8, "brief": 3}
MAX_FILE_SYMBOLS = {"full": 6, "brief": 3}  # per key file: the list is a facet, not an inventory

MIN_PUBLIC = 3  # fewer public symbols than this: show private ones too rather than almost nothing
_CHANGE_RANK = {"removed": 0, "modified": 1, "added": 2}
GENERIC_NAMES = frozenset({"main", "run", "setup", "__init__"})  # entry points named alike in every file


def key_files(facts: Facts, length: Length) -> list[FileFact]:
    """The files the analyzers marked key, most important first (`SymbolsFacts.key_order`; path
    order in facts from before it); when none are marked, the largest non-generated ones."""
    chosen = facts.files.key_files()
    order = {path: index for index, path in enumerate(facts.symbols.key_order)}
    if chosen and order:
        chosen = sorted(chosen, key=lambda f: order.get(f.path, len(order)))
    if not chosen:
        candidates = [f for f in facts.files.files if not f.generated] or list(facts.files.files)
        chosen = sorted(candidates, key=lambda f: -(f.additions + f.deletions))
    return chosen[: MAX_KEY_FILES[length]]


def short_name(name: str) -> str:
    """The last two parts of a qualified name: ``Runner::run`` of ``ns::Routing::Runner::run``."""
    separator = "::" if "::" in name else "."
    parts = [p for p in name.split(separator) if p]
    return separator.join(parts[-2:]) if parts else name


def is_test_symbol(symbol: SymbolChange, test_paths: set[str]) -> bool:
    last = symbol.name.replace("::", ".").split(".")[-1]
    return (
        symbol.path in test_paths
        or last.startswith("test_")
        or last.startswith("Test")
        or in_test_module(symbol.name, symbol.language)
    )


def ranked_symbols(facts: Facts) -> list[SymbolChange]:
    """Every changed symbol once (by name), most telling first: public before private and
    tests, symbols of key files first, removed and modified before added."""
    test_paths = {f.path for f in facts.files.files if f.category == "test"} | set(facts.tests_ci.test_files)
    key_paths = {f.path for f in facts.files.key_files()}
    seen: set[str] = set()
    unique: list[tuple[int, SymbolChange]] = []
    for index, symbol in enumerate(facts.symbols.symbols):
        if symbol.name not in seen:
            seen.add(symbol.name)
            unique.append((index, symbol))

    def rank(item: tuple[int, SymbolChange]) -> tuple[int, int, int, int, int]:
        index, symbol = item
        return (
            1 if is_test_symbol(symbol, test_paths) else 0,
            1 if is_private(symbol.name, symbol.language) or symbol.name in GENERIC_NAMES else 0,
            0 if symbol.path in key_paths else 1,
            _CHANGE_RANK.get(symbol.change, 1),
            index,
        )

    return [symbol for _, symbol in sorted(unique, key=rank)]


def key_symbols(facts: Facts, length: Length) -> list[SymbolChange]:
    """At most MAX_SYMBOLS of `ranked_symbols`; private helpers and tests only when there are
    too few public symbols to show (they are counted by `key_symbols_counted` otherwise)."""
    return _key_of(facts, length, ranked_symbols(facts))


def key_symbols_counted(facts: Facts, length: Length) -> tuple[list[SymbolChange], int]:
    """`key_symbols`, and how many changed symbols it leaves out (for "and N more")."""
    ranked = ranked_symbols(facts)
    chosen = _key_of(facts, length, ranked)
    return chosen, len(ranked) - len(chosen)


def _key_of(facts: Facts, length: Length, ranked: list[SymbolChange]) -> list[SymbolChange]:
    test_paths = {f.path for f in facts.files.files if f.category == "test"} | set(facts.tests_ci.test_files)
    public = [s for s in ranked if not is_private(s.name, s.language) and not is_test_symbol(s, test_paths)]
    chosen = public if len(public) >= MIN_PUBLIC else ranked
    return chosen[: MAX_SYMBOLS[length]]


def file_symbols(facts: Facts, path: str, length: Length) -> tuple[list[str], int]:
    """The changed symbols of one file worth naming (at most MAX_FILE_SYMBOLS, most telling
    first, as `ranked_symbols` orders them) and how many more the file changes."""
    names: list[str] = []
    for symbol in _ranked_in_file(facts, path):
        if symbol.name not in names:
            names.append(symbol.name)
    cap = MAX_FILE_SYMBOLS[length]
    return names[:cap], max(0, len(names) - cap)


def _ranked_in_file(facts: Facts, path: str) -> list[SymbolChange]:
    test_paths = {f.path for f in facts.files.files if f.category == "test"} | set(facts.tests_ci.test_files)
    own = [(i, s) for i, s in enumerate(facts.symbols.symbols) if s.path == path]

    def rank(item: tuple[int, SymbolChange]) -> tuple[int, int, int, int]:
        index, symbol = item
        return (
            1 if is_test_symbol(symbol, test_paths) else 0,
            1 if is_private(symbol.name, symbol.language) or symbol.name in GENERIC_NAMES else 0,
            _CHANGE_RANK.get(symbol.change, 1),
            index,
        )

    return [symbol for _, symbol in sorted(own, key=rank)]


def key_excerpts(facts: Facts, length: Length) -> list[CodeExcerpt]:
    return facts.symbols.excerpts[: MAX_EXCERPTS[length]]
