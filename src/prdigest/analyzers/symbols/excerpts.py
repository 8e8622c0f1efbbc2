"""Key code excerpts: for each key file, its most significant hunk, trimmed to read.

A hunk's weight is its number of added plus removed lines, raised when those lines lie
inside a changed symbol (a change to a function body says more than one to imports).
Long hunks are trimmed (see `trim`); the excerpt says so. A hunk that only changes a licence
or copyright header, or only whitespace, is never an excerpt: it shows nothing of the change.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

from prdigest.analyzers.symbol_names import in_test_module
from prdigest.analyzers.symbols.languages import language_for_path
from prdigest.analyzers.symbols.own_tests import in_spans, own_test_spans
from prdigest.analyzers.symbols.quiet_lines import QuietLines
from prdigest.analyzers.symbols.trim import trim_lines
from prdigest.diff import Hunk, Line, file_diff
from prdigest.models.facts import CodeExcerpt, SymbolChange
from prdigest.models.pullrequest import FileChange, PullRequest

MAX_EXCERPT_FILES = 5
MAX_EXCERPT_LINES = 40
# How much more a hunk inside a changed symbol weighs than one outside any.
_IN_SYMBOL_BONUS = 1.5
_IN_TESTS_FACTOR = 0.01
_LICENCE_LINE = re.compile(
    r"copyright|licen[cs]ed?\b|spdx-license|all rights reserved|\(c\)\s*\d{4}|apache\.org/licenses|"
    r"gnu\.org/licenses|without warranties|permissions and limitations",
    re.IGNORECASE,
)


def is_noise_hunk(hunk: Hunk) -> bool:
    """Whether a hunk only touches a licence/copyright header or only whitespace."""
    changed = [line for line in hunk.lines if line.kind != " "]
    if not changed:
        return True
    if all(_LICENCE_LINE.search(line.text) or not line.text.strip() for line in changed):
        return True
    removed = sorted("".join(line.text.split()) for line in changed if line.kind == "-")
    added = sorted("".join(line.text.split()) for line in changed if line.kind == "+")
    return removed == added


def new_file_anchors(hunk: Hunk) -> list[int]:
    """Each line's position in the new file; a removed line takes the place it was removed at."""
    anchors: list[int] = []
    next_new = hunk.new_start
    for line in hunk.lines:
        if line.new_line is not None:
            anchors.append(line.new_line)
            next_new = line.new_line + 1
        else:
            anchors.append(next_new)
    return anchors


def _symbol_span(symbol: SymbolChange) -> tuple[int, int] | None:
    if symbol.start_line is None:
        return None
    return symbol.start_line, symbol.end_line if symbol.end_line is not None else symbol.start_line


class _HunkWords:
    """The words of a hunk (its section header and lines), read once: a generated file's one
    hunk of 20,000 lines named by 3,000 hunk-header symbols was 60 million regex searches."""

    def __init__(self, lines: Sequence[Line], section_header: str) -> None:
        self._lines, self._header = lines, section_header
        self._words: frozenset[str] | None = None

    def mentions(self, name: str) -> bool:
        """Whether `name` stands in the hunk as a whole word (not inside a longer one)."""
        if _WORD.fullmatch(name):
            if self._words is None:
                text = "\n".join([self._header, *(line.text for line in self._lines)])
                self._words = frozenset(_WORD.findall(text))
            return name in self._words
        word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
        return bool(word.search(self._header)) or any(word.search(line.text) for line in self._lines)

    def mentions_any(self, names: frozenset[str]) -> bool:
        """Whether any of `names` (each a whole word) stands in the hunk."""
        self.mentions(next(iter(names)))  # reads the words once
        return self._words is not None and not self._words.isdisjoint(names)


_WORD = re.compile(r"[\w$]+")


def _symbol_hits(
    symbol: SymbolChange,
    lines: Sequence[Line],
    anchors: Sequence[int],
    section_header: str,
    words: _HunkWords | None = None,
) -> int:
    """How many changed lines fall inside ``symbol``: by line range, else by mention."""
    span = _symbol_span(symbol)
    if symbol.end_line is not None and span is not None:
        low, high = span
        if symbol.change == "removed":  # its range is in the old file
            return sum(
                1 for line in lines if line.kind == "-" and line.old_line is not None and low <= line.old_line <= high
            )
        return sum(1 for line, at in zip(lines, anchors, strict=True) if line.kind != " " and low <= at <= high)
    # Symbols inferred from hunk headers have no end: match by name in the hunk instead.
    short = _short_name(symbol)
    if not short:
        return 0
    if (words or _HunkWords(lines, section_header)).mentions(short):
        return sum(1 for line in lines if line.kind != " ")
    return 0


def _short_name(symbol: SymbolChange) -> str:
    return symbol.name.rsplit(".", 1)[-1].rsplit("::", 1)[-1].rsplit(" ", 1)[-1]


def _in_some_symbol(symbols: Sequence[SymbolChange], named: frozenset[str], hunk: Hunk, anchors: Sequence[int]) -> bool:
    """Whether any of ``symbols`` has a changed line in ``hunk`` (as `_symbol_hits` > 0). The
    names of symbols without an end line are looked up in the hunk's words all at once."""
    words = _HunkWords(hunk.lines, hunk.section_header)
    if named and words.mentions_any(named):
        return True
    return any(
        _symbol_hits(s, hunk.lines, anchors, hunk.section_header, words)
        for s in symbols
        if s.end_line is not None or not _WORD.fullmatch(_short_name(s))
    )


def _best_symbol(
    symbols: Sequence[SymbolChange], lines: Sequence[Line], anchors: Sequence[int], section_header: str
) -> SymbolChange | None:
    best: tuple[int, int] | None = None
    chosen: SymbolChange | None = None
    words = _HunkWords(lines, section_header)
    for symbol in symbols:
        hits = _symbol_hits(symbol, lines, anchors, section_header, words)
        if hits == 0:
            continue
        span = _symbol_span(symbol)
        width = span[1] - span[0] if span is not None else 1 << 30
        rank = (hits, -width)  # most changed lines, then the innermost (narrowest) symbol
        if best is None or rank > best:
            best, chosen = rank, symbol
    return chosen


def _reason(symbol: SymbolChange | None, added: int, removed: int) -> str:
    counts = f"+{added}/-{removed}"
    if symbol is None:
        return f"largest change in this file ({counts})"
    if symbol.change == "added":
        return f"adds {symbol.kind} {symbol.name} ({counts})"
    if symbol.change == "removed":
        return f"removes {symbol.kind} {symbol.name} ({counts})"
    return f"largest change in {symbol.name} ({counts})"


# The start of a Python statement (a keyword, an assignment, a call): read as code without
# parsing the file. Prose in a docstring rarely starts so; when it does, the excerpt is chosen by
# size alone, as it was before docstrings were told apart.
_LOOKS_LIKE_CODE = re.compile(
    r"^\s*(?:(?:def|class|return|import|from|raise|if|elif|for|while|with|try|except|async|await|yield|assert)\b"
    r"|else:|finally:|@\w|[\w.]+(?:\[[^\]]*\])?\s*(?:[-+*/|&]?=(?!=)|\())"
)


def _has_code(quiet: QuietLines, hunk: Hunk) -> bool:
    """Whether the hunk changes a line of code (every changed line counts outside Python)."""
    if not quiet.python:
        return True
    changed = [line for line in hunk.lines if line.kind != " " and line.text.strip()]
    if any(_LOOKS_LIKE_CODE.match(line.text) for line in changed):
        return True  # a statement's own start: no need to read the file's docstrings
    # added lines first: most hunks have one, and then the old side need not be read
    return any(not quiet.is_quiet(line) for line in sorted(changed, key=lambda line: line.kind != "+"))


def excerpt_for_file(
    change: FileChange,
    hunks: Sequence[Hunk],
    symbols: Sequence[SymbolChange],
    max_lines: int = MAX_EXCERPT_LINES,
    *,
    by_size: bool = False,
) -> CodeExcerpt | None:
    """The excerpt of one file's most significant hunk, or None when it has no changes. A hunk
    that changes code goes before one that only changes docstrings, comments or blank lines
    (a Python file read as syntax): the key code of a changed default is the signature, not
    the docstring paragraph that tells of it."""
    ranked: list[tuple[float, int, Hunk]] = []
    spans = own_test_spans(symbols, "+")
    symbols = [s for s in symbols if not in_test_module(s.name, s.language)]
    # symbols inferred from hunk headers (no end line) are matched by their name, as words
    named = frozenset(
        short for s in symbols if s.end_line is None and (short := _short_name(s)) and _WORD.fullmatch(short)
    )
    for index, hunk in enumerate(hunks):
        weight = float(hunk.added + hunk.removed)
        if weight == 0 or is_noise_hunk(hunk):
            continue
        anchors = new_file_anchors(hunk)
        if _in_some_symbol(symbols, named, hunk, anchors):
            weight *= _IN_SYMBOL_BONUS
        added = [line.new_line for line in hunk.lines if line.kind == "+"]
        if added and all(in_spans(spans, change.path, number) for number in added):
            weight *= _IN_TESTS_FACTOR  # the file's own tests: shown only when nothing else changed
        ranked.append((weight, -index, hunk))  # ties go to the earlier hunk
    if not ranked:
        return None
    ranked.sort(key=lambda item: (item[0], item[1]), reverse=True)
    quiet = QuietLines(change)
    # the heaviest hunk that changes code, else the heaviest (a side is read only when asked)
    chosen = next(
        (hunk for _, _, hunk in ranked if by_size or len(ranked) == 1 or _has_code(quiet, hunk)), ranked[0][2]
    )
    window = trim_lines(chosen.lines, max_lines)
    shown = [chosen.lines[i] for i in window.indices]
    all_anchors = new_file_anchors(chosen)
    anchors = [all_anchors[i] for i in window.indices]
    symbol = _best_symbol(symbols, shown, anchors, chosen.section_header)
    first = shown[0] if shown else None
    start = None if first is None else (first.new_line if first.new_line is not None else first.old_line)
    return CodeExcerpt(
        path=change.path,
        symbol=symbol.name if symbol is not None else None,
        language=language_for_path(change.path),
        start_line=start,
        text="\n".join(line.kind + line.text for line in shown),
        reason=_reason(symbol, chosen.added, chosen.removed),
        truncated=window.truncated,
    )


def choose_excerpts(
    pr: PullRequest,
    key_paths: Sequence[str],
    symbols: Sequence[SymbolChange],
    hunks_by_path: Mapping[str, Sequence[Hunk]] | None = None,
    max_files: int = MAX_EXCERPT_FILES,
    max_lines: int = MAX_EXCERPT_LINES,
    by_size: Collection[str] = (),
) -> list[CodeExcerpt]:
    """One excerpt per key file (in the given order, at most ``max_files``).

    ``hunks_by_path`` may carry patches the caller already parsed, to avoid parsing twice.
    ``by_size``: paths whose hunk is chosen by size alone, their docstrings not read.
    """
    by_path = {change.path: change for change in pr.files}
    symbols_by_path: dict[str, list[SymbolChange]] = {}
    for symbol in symbols:
        symbols_by_path.setdefault(symbol.path, []).append(symbol)
    excerpts: list[CodeExcerpt] = []
    for path in dict.fromkeys(key_paths):  # keeps order, drops repeats
        if len(excerpts) >= max_files:
            break
        change = by_path.get(path)
        if change is None or change.binary or not change.patch:
            continue
        known = hunks_by_path.get(path) if hunks_by_path is not None else None
        hunks = known if known is not None else file_diff(change).numbered_hunks
        excerpt = excerpt_for_file(change, hunks, symbols_by_path.get(path, []), max_lines, by_size=path in by_size)
        if excerpt is not None:
            excerpts.append(excerpt)
    return excerpts
