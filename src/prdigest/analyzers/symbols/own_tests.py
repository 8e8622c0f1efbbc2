"""Where a source file's own tests are: the line spans of its changed definitions inside its
test module (Rust's ``#[cfg(test)] mod tests``). What happens there checks the change and is
not the change: no code edit, no key code, no line of core logic is read from it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from prdigest.analyzers.symbol_names import RUST_TEST_MODULES, in_test_module
from prdigest.analyzers.symbols.languages import parse
from prdigest.models.facts import SymbolChange
from prdigest.models.pullrequest import FileChange

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


_CFG_TEST = "#[cfg(test)]"


def rust_test_module_spans(changes: Sequence[FileChange]) -> TestSpans:
    """The whole of each Rust file's own test modules (``mod tests { … }``, new side): what
    is in them but no definition (a ``macro_rules!`` of test cases, a ``const``) checks the
    change too. Parsed only for files whose new text has a ``#[cfg(test)]``."""
    spans: TestSpans = {}
    for change in changes:
        text = change.content_after
        if not change.path.endswith(".rs") or text is None or _CFG_TEST not in text:
            continue
        stack = [parse("rust", text.encode("utf-8", errors="replace")).root_node]
        while stack:
            node = stack.pop()
            if node.type == "mod_item":
                name = node.child_by_field_name("name")
                if name is not None and name.text is not None and name.text.decode() in RUST_TEST_MODULES:
                    spans.setdefault(change.path, []).append((node.start_point[0] + 1, node.end_point[0] + 1))
                    continue
            stack.extend(node.children)
    return spans
