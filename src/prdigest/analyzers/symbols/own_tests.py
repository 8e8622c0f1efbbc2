"""Where a source file's own tests are: the line spans of its changed definitions inside its
test module (Rust's ``#[cfg(test)] mod tests``). What happens there checks the change and is
not the change: no code edit, no key code, no line of core logic is read from it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from prdigest.analyzers.symbol_names import in_test_module
from prdigest.models.facts import SymbolChange

# Attribute lines (``#[test]``, ``#[tokio::test]``) above a definition that belong to it.
ATTRIBUTE_LINES = 3

# Per path: (first line, last line) of test-module definitions on one side of the diff.
TestSpans = dict[str, list[tuple[int, int]]]


def own_test_spans(symbols: Sequence[SymbolChange], side: Literal["+", "-"]) -> TestSpans:
    """Spans on the new side ("+": added and modified definitions) or the old ("-": removed)."""
    spans: TestSpans = {}
    for s in symbols:
        if (s.change == "removed") != (side == "-") or not in_test_module(s.name, s.language):
            continue
        if s.start_line is not None and s.end_line is not None:
            spans.setdefault(s.path, []).append((s.start_line, s.end_line))
    return spans


def in_spans(spans: TestSpans, path: str, line: int | None) -> bool:
    """Whether a line of `path` lies in one of its spans, attributes just above included."""
    return line is not None and any(start - ATTRIBUTE_LINES <= line <= end for start, end in spans.get(path, ()))
