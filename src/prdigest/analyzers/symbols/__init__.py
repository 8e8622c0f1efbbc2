"""The "symbols" analyzer: changed functions/classes/methods and key code excerpts.

Symbols come from tree-sitter when a file's contents are known, else from its hunk
headers; excerpts come from the key files the "files" analyzer marked.
"""

from __future__ import annotations

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.registry import Analyzer
from prdigest.analyzers.symbols.diffmap import extract_symbol_changes
from prdigest.analyzers.symbols.excerpts import MAX_EXCERPT_FILES, choose_excerpts
from prdigest.analyzers.symbols.languages import grammar_key_for_path
from prdigest.diff import Hunk, file_diff
from prdigest.models.facts import FilesFacts, SymbolChange, SymbolsFacts
from prdigest.models.pullrequest import FileChange, PullRequest

__all__ = ["ANALYZER", "analyze_symbols", "choose_excerpts", "extract_symbol_changes", "run"]


def fallback_key_paths(files: list[FileChange], generated: set[str], limit: int = MAX_EXCERPT_FILES) -> list[str]:
    """Key files when none were marked: the non-generated text files with most changed lines."""
    candidates = [f for f in files if not f.binary and f.patch and f.path not in generated]
    candidates.sort(key=lambda f: -(f.additions + f.deletions))
    return [f.path for f in candidates[:limit]]


def analyze_symbols(pr: PullRequest, key_paths: list[str], generated: set[str]) -> SymbolsFacts:
    """Symbols of every non-generated source file, and excerpts of ``key_paths``."""
    hunks_by_path: dict[str, tuple[Hunk, ...]] = {}
    symbols: list[SymbolChange] = []
    for change in pr.files:
        if change.path in generated or change.binary or not change.patch:
            continue
        if grammar_key_for_path(change.path) is None:
            continue
        hunks = file_diff(change).numbered_hunks
        hunks_by_path[change.path] = hunks
        symbols.extend(extract_symbol_changes(change, hunks))
    excerpts = choose_excerpts(pr, key_paths, symbols, hunks_by_path)
    return SymbolsFacts(symbols=symbols, excerpts=excerpts)


def run(pr: PullRequest, ctx: AnalysisContext) -> SymbolsFacts:
    files = ctx.result("files", FilesFacts)
    generated = {fact.path for fact in files.files if fact.generated}
    key_paths = [fact.path for fact in files.key_files()]
    if not key_paths:
        key_paths = fallback_key_paths(pr.files, generated)
    return analyze_symbols(pr, key_paths, generated)


ANALYZER = Analyzer(name="symbols", version="1", run=run, requires=("files",))
