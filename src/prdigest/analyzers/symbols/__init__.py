"""The "symbols" analyzer: changed functions/classes/methods and key code excerpts.

Symbols come from tree-sitter when a file's contents are known, else from its hunk
headers. The key files the "files" analyzer marked are ordered by importance once the
symbols are known (`key_order`: `prdigest.analyzers.importance`), and excerpts come from
them in that order, so the first excerpt is the central change. `edits` say what the code
change does (`prdigest.analyzers.symbols.edits`).
"""

from __future__ import annotations

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.importance import FileSignals, file_signals, symbol_counts, weight
from prdigest.analyzers.key_files import CODE_RANK
from prdigest.analyzers.registry import Analyzer
from prdigest.analyzers.symbol_names import in_test_module
from prdigest.analyzers.symbols.diffmap import extract_symbol_changes
from prdigest.analyzers.symbols.docs_only import mark_docs_only
from prdigest.analyzers.symbols.edits import code_edits
from prdigest.analyzers.symbols.excerpts import MAX_EXCERPT_FILES, choose_excerpts
from prdigest.analyzers.symbols.languages import grammar_key_for_path
from prdigest.analyzers.symbols.own_tests import in_spans, own_test_spans, rust_test_module_spans
from prdigest.analyzers.symbols.typing_only import mark_typing_only
from prdigest.analyzers.versions import DEFAULT_VERSIONS
from prdigest.diff import Hunk, file_diff
from prdigest.models.facts import FileFact, FilesFacts, SymbolChange, SymbolsFacts
from prdigest.models.pullrequest import FileChange, PullRequest

__all__ = ["ANALYZER", "analyze_symbols", "choose_excerpts", "extract_symbol_changes", "run"]


def fallback_key_paths(files: list[FileChange], generated: set[str], limit: int = MAX_EXCERPT_FILES) -> list[str]:
    """Key files when none were marked: the non-generated text files with most changed lines."""
    candidates = [f for f in files if not f.binary and f.patch and f.path not in generated]
    candidates.sort(key=lambda f: -(f.additions + f.deletions))
    return [f.path for f in candidates[:limit]]


def analyze_symbols(
    pr: PullRequest, key_paths: list[str], generated: set[str], files: FilesFacts | None = None
) -> SymbolsFacts:
    """Symbols of every non-generated source file, ``key_paths`` by importance (given the
    files' facts) and their excerpts in that order."""
    hunks_by_path: dict[str, tuple[Hunk, ...]] = {}
    symbols: list[SymbolChange] = []
    # docstring-only symbols are marked where users meet them: core logic (its syntax the code
    # edits read anyway), not tests, docs or examples
    core = {f.path for f in files.files if f.category == "source" and f.type == "core-logic"} if files else set()
    for change in pr.files:
        if change.path in generated or change.binary or not change.patch:
            continue
        if grammar_key_for_path(change.path) is None:
            continue
        hunks = file_diff(change).numbered_hunks
        hunks_by_path[change.path] = hunks
        found = extract_symbol_changes(change, hunks)
        symbols.extend(mark_typing_only(change, mark_docs_only(change, hunks, found)) if change.path in core else found)
    ordered = rank_key_paths(pr, key_paths, symbols, files) if files is not None else list(key_paths)
    tests = {f.path for f in files.files if f.category == "test" or f.type == "test"} if files is not None else set()
    # a test's excerpt is chosen by size: its docstrings are not read (no other reading parses them)
    excerpts = choose_excerpts(pr, ordered, symbols, hunks_by_path, by_size=tests)
    # what a file's own test module (Rust `mod tests`) does checks the change; it is not the change
    spans = own_test_spans(symbols, "+")
    edits = [e for e in code_edits(list(pr.files), generated | tests) if not in_spans(spans, e.path, e.line)]
    unplaced = {e.path for e in edits if e.symbol is None and e.path.endswith(".rs")}
    if unplaced:
        modules = rust_test_module_spans([f for f in pr.files if f.path in unplaced])
        edits = [e for e in edits if not in_spans(modules, e.path, e.line)]
    return SymbolsFacts(symbols=symbols, excerpts=excerpts, key_order=ordered, edits=edits)


def rank_key_paths(pr: PullRequest, key_paths: list[str], symbols: list[SymbolChange], files: FilesFacts) -> list[str]:
    """`key_paths` most important first: by the files analyzer's priority, then by how much the
    PR points at each file (changed symbols, named in the text, review threads, new module)."""
    facts = {f.path: f for f in files.files}
    tests = {f.path: f.category == "test" or f.type == "test" for f in files.files}
    counts = symbol_counts(tests, [(s.path, s.name) for s in symbols if not in_test_module(s.name, s.language)])
    signals = file_signals(pr)

    def order(path: str) -> tuple[int, float, int, str]:
        fact = facts.get(path)
        if fact is None:
            return (len(CODE_RANK), 0.0, 0, path)
        pointed = weight(signals.get(path, FileSignals()), counts.get(path, 0), source=fact.category == "source")
        return (_rank(fact), -pointed, -(fact.additions + fact.deletions), path)

    return sorted(dict.fromkeys(key_paths), key=order)


def _rank(fact: FileFact) -> int:
    return CODE_RANK.get(fact.key_reason_code or "", max(CODE_RANK.values()))


def run(pr: PullRequest, ctx: AnalysisContext) -> SymbolsFacts:
    files = ctx.result("files", FilesFacts)
    generated = {fact.path for fact in files.files if fact.generated}
    key_paths = [fact.path for fact in files.key_files()]
    if not key_paths:
        key_paths = fallback_key_paths(pr.files, generated)
    return analyze_symbols(pr, key_paths, generated, files)


# v2: key files by importance (key_order), excerpts in that order without licence or
# whitespace-only hunks, code edits
ANALYZER = Analyzer(name="symbols", version=DEFAULT_VERSIONS["symbols"], run=run, requires=("files",))
