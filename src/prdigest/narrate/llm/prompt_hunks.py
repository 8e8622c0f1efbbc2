"""A file's hunks as the LLM prompt shows them: extended to their enclosing symbol, context trimmed."""

from __future__ import annotations

from dataclasses import dataclass

from prdigest.diff import NO_NEWLINE_MARKER, Hunk, parse_patch
from prdigest.models.facts import SymbolChange

# A hunk whose enclosing symbol starts at most this many lines above gets those lines;
# further up, only the symbol's first line (its signature) and a gap marker.
FULL_EXTENSION_LINES = 3
MAX_EXTENSION_LINES = 400
# Unchanged lines kept around each run of changes (git's patches carry 3).
CONTEXT_LINES = 1
GAP_MARKER = " ⋮"


@dataclass(frozen=True)
class PromptHunk:
    header: str
    lines: tuple[str, ...]  # "+x", "-x", " x" (and "\\ No newline..." markers)
    added: int
    removed: int

    @property
    def deletion_only(self) -> bool:
        return self.added == 0 and self.removed > 0

    @property
    def changed(self) -> int:
        return self.added + self.removed


def prompt_hunks(
    patch: str, content_after: str | None = None, symbols: list[SymbolChange] | None = None
) -> list[PromptHunk]:
    """The hunks of a PR file patch (hunks only, as GitHub serves them, or with headers)."""
    hunks = parse_patch(patch).numbered_hunks
    if not hunks:
        return [_raw_hunk(patch)] if patch.strip() else []
    after_lines = content_after.splitlines() if content_after is not None else None
    return [_prompt_hunk(hunk, after_lines, symbols or []) for hunk in hunks]


def _prompt_hunk(hunk: Hunk, after_lines: list[str] | None, symbols: list[SymbolChange]) -> PromptHunk:
    lines = trim_context(_rendered(hunk))
    target_start = hunk.new_start
    label = hunk.section_header.strip()
    symbol = _enclosing_symbol(symbols, target_start, target_start + max(hunk.new_length, 1) - 1)
    if symbol is not None and symbol.start_line is not None:
        label = symbol.name
        gap = target_start - symbol.start_line
        if after_lines is not None and 0 < gap <= MAX_EXTENSION_LINES and target_start - 1 <= len(after_lines):
            above = after_lines[symbol.start_line - 1 : target_start - 1]
            if gap > FULL_EXTENSION_LINES:
                above = [above[0], GAP_MARKER[1:]]
            lines = [" " + line for line in above] + lines
    header = f"@@ -{hunk.old_start},{hunk.old_length} +{target_start},{hunk.new_length} @@"
    if label:
        header += f" {label}"
    added = sum(1 for line in lines if line.startswith("+"))
    removed = sum(1 for line in lines if line.startswith("-"))
    return PromptHunk(header=header, lines=tuple(lines), added=added, removed=removed)


def _rendered(hunk: Hunk) -> list[str]:
    lines: list[str] = []
    for line in hunk.lines:
        lines.append(line.kind + line.text)
        if line.no_newline:
            lines.append(NO_NEWLINE_MARKER)
    return lines


def trim_context(lines: list[str], keep: int = CONTEXT_LINES) -> list[str]:
    """`lines` with runs of unchanged lines cut to `keep` next to each change."""
    out: list[str] = []
    run: list[str] = []

    def flush(leading: bool, trailing: bool) -> None:
        if leading:
            kept = run[-keep:] if keep else []
        elif trailing:
            kept = run[:keep]
        elif len(run) > 2 * keep + 1:
            kept = [*run[:keep], GAP_MARKER, *run[-keep:]] if keep else [GAP_MARKER]
        else:
            kept = run
        out.extend(kept)
        run.clear()

    seen_change = False
    for line in lines:
        if line.startswith((" ", "\\")) or not line:
            run.append(line)
            continue
        flush(leading=not seen_change, trailing=False)
        seen_change = True
        out.append(line)
    flush(leading=not seen_change, trailing=seen_change)
    return out


def _raw_hunk(patch: str) -> PromptHunk:
    """A patch whose hunks cannot be placed in the file (cut, malformed) is kept verbatim as one hunk."""
    lines = tuple(patch.splitlines())
    added = sum(1 for line in lines if line.startswith("+"))
    removed = sum(1 for line in lines if line.startswith("-"))
    return PromptHunk(header="@@ (unparsed patch) @@", lines=lines, added=added, removed=removed)


def _enclosing_symbol(symbols: list[SymbolChange], first: int, last: int) -> SymbolChange | None:
    """The innermost changed symbol (by the facts) whose range covers the hunk's start."""
    best: SymbolChange | None = None
    for symbol in symbols:
        if symbol.change == "removed" or symbol.start_line is None:
            continue
        end = symbol.end_line if symbol.end_line is not None else symbol.start_line
        covers = symbol.start_line <= first <= end or first <= symbol.start_line <= last
        if covers and (best is None or (best.start_line or 0) < symbol.start_line):
            best = symbol
    return best
