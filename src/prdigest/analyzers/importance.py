"""How important each changed file is to a reader, from facts of the PR itself.

The files analyzer chooses the key files with it (before symbols are known) and the symbols
analyzer orders every file with it once they are (`SymbolsFacts.ranked_paths`): key files
and key code are then shown most important first, never in path order.

Within the kind of file (`class_rank`: core logic before requirements, infrastructure, CI,
configuration, tests, docs), a file weighs more when

- it changes more named symbols (functions, classes, methods) outside tests;
- the title or the author's text names it (its path, file name or a distinctive stem);
- reviewers opened threads on it;
- it is a new source module;

and ties go to the file with more changed lines, then the path.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import PurePosixPath

from prdigest.analyzers.pr_text import without_comments
from prdigest.models.pullrequest import FileStatus, PullRequest

# Stems too common to say that the author meant this file.
_GENERIC_STEMS = frozenset(
    {
        "__init__", "__main__", "main", "index", "utils", "util", "setup", "config", "test", "tests", "types",
        "common", "base", "core", "helpers", "constants", "models", "readme", "changelog", "version",
        "__version__", "conftest", "mod", "lib", "app", "api", "docs",
    }
)  # fmt: skip
MIN_STEM = 5  # shorter stems ("io", "x") match ordinary words

MENTION_WEIGHT = 4.0
THREAD_WEIGHT = 3.0
NEW_MODULE_WEIGHT = 3.0
MAX_SYMBOL_WEIGHT = 12  # a file's symbol count stops adding past this


@dataclass(frozen=True)
class FileSignals:
    """What the PR says about one file, beyond its kind and size."""

    mentioned: bool = False
    threads: int = 0
    new_module: bool = False


# Kept by path: a file is asked about in PR after PR, more paths than `re` keeps compiled.
@lru_cache(maxsize=4096)
def _mention_needles(path: str) -> tuple[tuple[str, str | None], ...]:
    """Per needle: the needle and its lower case when it is ASCII (else None)."""
    pure = PurePosixPath(path)
    needles = [path]
    if len(pure.name) >= MIN_STEM - 1:
        needles.append(pure.name)
    stem = pure.stem
    if len(stem) >= MIN_STEM and stem.lower() not in _GENERIC_STEMS:
        needles.append(stem)
    return tuple((n, n.lower() if n.isascii() else None) for n in dict.fromkeys(needles))


# Compiled only for a needle the text may hold: most needles fail the lower-case check first.
@lru_cache(maxsize=4096)
def _mention_pattern(needle: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w/.-]){re.escape(needle)}(?![\w-])", re.IGNORECASE)


def mentioned_in(path: str, text: str, folded: str | None = None) -> bool:
    """Whether `text` names the file: its path, its file name or a distinctive stem.

    ``folded``: `fold` of the text (then an ASCII needle it does not hold is not searched for)."""
    for needle, lowered in _mention_needles(path):
        if folded is not None and lowered is not None and lowered not in folded:
            continue
        if _mention_pattern(needle).search(text):
            return True
    return False


def fold(text: str) -> str | None:
    """``text.lower()``, or None when the text holds a character that `re.IGNORECASE` matches
    with an ASCII letter but ``lower()`` does not turn into it (İ, ı, ſ, the Kelvin sign).
    Otherwise a text character matching an ASCII needle's character ignoring case is its upper
    or lower case, so every match of the needle is in the lowered text as the lowered needle."""
    return None if any(c in text for c in _FOLDS_APART) else text.lower()


_FOLDS_APART = ("\u0130", "\u0131", "\u017f", "\u212a")


def file_signals(pr: PullRequest) -> dict[str, FileSignals]:
    """Signals for every changed file of `pr`."""
    text = f"{pr.title}\n{without_comments(pr.body)}"
    folded = fold(text)
    threads: dict[str, int] = {}
    for thread in pr.review_threads:
        if any(not c.author_is_bot for c in thread.comments):
            threads[thread.path] = threads.get(thread.path, 0) + 1
    return {
        change.path: FileSignals(
            mentioned=mentioned_in(change.path, text, folded),
            threads=threads.get(change.path, 0),
            new_module=change.status == FileStatus.ADDED,
        )
        for change in pr.files
    }


def weight(signals: FileSignals, symbol_count: int = 0, source: bool = True) -> float:
    """How much a file weighs within its kind; `source` says whether "new module" applies."""
    score = min(symbol_count, MAX_SYMBOL_WEIGHT) * 1.0
    if signals.mentioned:
        score += MENTION_WEIGHT
    if signals.threads:
        score += THREAD_WEIGHT + min(signals.threads, 3) - 1
    if signals.new_module and source:
        score += NEW_MODULE_WEIGHT
    return score


def symbol_counts(paths_and_tests: Mapping[str, bool], symbol_paths: list[tuple[str, str]]) -> dict[str, int]:
    """Distinct changed symbols per path (`symbol_paths`: (path, name) pairs); files flagged as
    tests in `paths_and_tests` count none, test helpers being no central change."""
    seen: dict[str, set[str]] = {}
    for path, name in symbol_paths:
        if paths_and_tests.get(path, False):
            continue
        seen.setdefault(path, set()).add(name)
    return {path: len(names) for path, names in seen.items()}
