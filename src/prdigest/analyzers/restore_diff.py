"""Restore / re-land diff: what a PR brings back compared with what the restored PR added.

Line level: the added lines of each file (on the shared diff model), compared as multisets of
stripped lines, so a moved hunk is no difference. Symbol level: the functions and classes each
PR added or changed. The result says what the original added that the restore leaves out
(e.g. a guard call no longer in the constructor) and what the restore adds that is new.
"""

from __future__ import annotations

from collections import Counter

from prdigest.diff import file_diff
from prdigest.models.facts import DiffLine, RestoreDiff, SymbolsFacts
from prdigest.models.pullrequest import PullRequest

_MAX_LINES = 20


def restore_diff(
    original: PullRequest,
    restore: PullRequest,
    original_symbols: SymbolsFacts | None = None,
    restore_symbols: SymbolsFacts | None = None,
) -> RestoreDiff:
    """Compare the lines and symbols `restore` adds with those `original` added."""
    before = _added_lines(original)
    after = _added_lines(restore)
    files_not_restored = sorted(path for path in before if path not in after)
    files_new = sorted(path for path in after if path not in before)
    missing: list[DiffLine] = []
    new: list[DiffLine] = []
    for path in sorted(set(before) | set(after)):
        left, right = before.get(path, Counter()), after.get(path, Counter())
        missing.extend(DiffLine(path=path, text=text) for text in _ordered(left - right, original, path))
        new.extend(DiffLine(path=path, text=text) for text in _ordered(right - left, restore, path))
    old_symbols = _symbols(original_symbols)
    new_symbols = _symbols(restore_symbols)
    return RestoreDiff(
        original=original.number,
        identical=not missing and not new and not files_not_restored and not files_new,
        files_not_restored=files_not_restored,
        files_new=files_new,
        symbols_not_restored=sorted(old_symbols - new_symbols) if restore_symbols is not None else [],
        symbols_new=sorted(new_symbols - old_symbols) if original_symbols is not None else [],
        lines_not_restored=missing[:_MAX_LINES],
        lines_new=new[:_MAX_LINES],
        more_lines_not_restored=max(0, len(missing) - _MAX_LINES),
        more_lines_new=max(0, len(new) - _MAX_LINES),
    )


def _added_lines(pr: PullRequest) -> dict[str, Counter[str]]:
    lines: dict[str, Counter[str]] = {}
    for change in pr.files:
        kept = Counter(text.strip() for text in file_diff(change).added() if _meaningful(text))
        if kept:
            lines[change.path] = kept
    return lines


def _ordered(difference: Counter[str], pr: PullRequest, path: str) -> list[str]:
    """The differing lines in the order the PR's patch shows them."""
    left = Counter(difference)
    ordered: list[str] = []
    for change in pr.files:
        if change.path != path:
            continue
        for text in file_diff(change).added():
            key = text.strip()
            if left.get(key, 0) > 0:
                left[key] -= 1
                ordered.append(key)
    return ordered


def _meaningful(text: str) -> bool:
    # Braces, blank lines and lone punctuation move about when code is re-landed.
    return any(ch.isalnum() for ch in text)


def _symbols(symbols: SymbolsFacts | None) -> set[str]:
    if symbols is None:
        return set()
    return {f"{s.path}:{s.name}" for s in symbols.symbols if s.change in ("added", "modified")}


def readded_lines(original: PullRequest, candidate: PullRequest) -> tuple[int, int]:
    """(how many of the lines ``original`` added ``candidate`` adds again, how many it added):
    file by file, as multisets of stripped meaningful lines, so a re-land that moved no file
    counts whole and one that re-adds a few common lines counts little."""
    before, after = _added_lines(original), _added_lines(candidate)
    total = sum(sum(counts.values()) for counts in before.values())
    again = sum(sum((counts & after.get(path, Counter())).values()) for path, counts in before.items())
    return again, total
