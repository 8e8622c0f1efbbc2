"""Patch-only fallback: symbols inferred from hunk headers and definition lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prdigest.analyzers.symbols import extract_symbol_changes
from prdigest.analyzers.symbols.hunk_headers import symbols_from_hunks
from prdigest.diff import parse_patch
from prdigest.models.facts import SymbolChange

HUMMING_BEFORE = """\
import os

try:
    import humming
except ImportError:
    humming = None


def assert_humming_available():
    if humming is None:
        raise ImportError("humming is not installed")


class HummingConfig(QuantizationConfig):
    \"\"\"Config for humming quantization.\"\"\"

    packed: bool = True
    group: int = 128
    order: str = "row"

    def __init__(self, bits: int, group_size: int) -> None:
        super().__init__()
        assert_humming_available()
        self.bits = bits
        self.group_size = group_size
"""

HUMMING_AFTER = HUMMING_BEFORE.replace(
    """

def assert_humming_available():
    if humming is None:
        raise ImportError("humming is not installed")
""",
    "",
).replace("        assert_humming_available()\n", "")


def summary(changes: list[SymbolChange]) -> set[tuple[str, str, str]]:
    return {(c.name, c.kind, c.change) for c in changes}


def test_seed_from_git_patch_only(tmp_path: Path, build: Any) -> None:
    patch = build.git_patch(tmp_path, HUMMING_BEFORE, HUMMING_AFTER, ".py")
    assert "@@ class HummingConfig(QuantizationConfig):" in patch  # git's function context
    change = build.file_change("humming.py", HUMMING_BEFORE, HUMMING_AFTER, with_contents=False, patch=patch)
    symbols = extract_symbol_changes(change)
    assert summary(symbols) == {
        ("assert_humming_available", "function", "removed"),
        ("HummingConfig.__init__", "method", "modified"),
    }
    assert all(s.method == "hunk-header" and s.end_line is None for s in symbols)
    removed = next(s for s in symbols if s.change == "removed")
    assert removed.start_line == 9  # the def line in the old file


def test_header_alone_names_the_enclosing_function() -> None:
    patch = "@@ -40,3 +40,3 @@ def load_weights(self, weights):\n     x = 1\n-    y = 2\n+    y = 3\n     z = 4\n"
    symbols = symbols_from_hunks("m.py", parse_patch(patch).hunks, "python")
    assert summary(symbols) == {("load_weights", "function", "modified")}
    assert symbols[0].start_line is None  # the def line is outside the hunk


def test_module_level_change_after_a_function_is_not_attributed_to_it() -> None:
    patch = "@@ -1,5 +1,5 @@\n def f():\n     return 1\n \n-LIMIT = 1\n+LIMIT = 2\n"
    assert symbols_from_hunks("m.py", parse_patch(patch).hunks, "python") == []


def test_cpp_header_and_added_cuda_kernel(tmp_path: Path, build: Any) -> None:
    before = (
        "#include <cuda.h>\n\n"
        "int Foo::bar(int x) {\n  int a = 1;\n  int b = 2;\n  int c = 3;\n  int y = x;\n  return y;\n}\n"
    )
    after = before.replace("  int y = x;\n", "  int y = x * 2;\n") + (
        "\n__global__ void zero_kernel(float* x, int n) {\n  x[0] = 0.0f;\n}\n"
    )
    patch = build.git_patch(tmp_path, before, after, ".cu")
    change = build.file_change("k.cu", before, after, with_contents=False, patch=patch)
    symbols = extract_symbol_changes(change)
    assert summary(symbols) == {("Foo::bar", "method", "modified"), ("zero_kernel", "function", "added")}
    assert {s.language for s in symbols} == {"cuda"}


def test_go_rust_and_typescript_definition_lines() -> None:
    go = "@@ -8,2 +8,3 @@ func (s *Server) Start(port int) error {\n \tx := 1\n+\treturn s.listen(port)\n }\n"
    assert summary(symbols_from_hunks("s.go", parse_patch(go).hunks, "go")) == {("Server.Start", "method", "modified")}
    rust = (
        "@@ -1,3 +1,6 @@ impl Cache {\n"
        "     fn get(&self) -> u32 {\n"
        "         1\n"
        "     }\n"
        "+    pub fn put(&mut self) {\n"
        "+        self.n += 1;\n"
        "+    }\n"
    )
    assert summary(symbols_from_hunks("c.rs", parse_patch(rust).hunks, "rust")) == {("Cache::put", "method", "added")}
    ts = (
        "@@ -1,2 +1,3 @@\n"
        "-export const double = (x: number): number => x * 2;\n"
        "+export const double = (x: number): number => x + x;\n"
        "+export function triple(x: number) { return 3 * x; }\n"
        " export default double;\n"
    )
    assert summary(symbols_from_hunks("m.ts", parse_patch(ts).hunks, "typescript")) == {
        ("double", "function", "modified"),
        ("triple", "function", "added"),
    }


def test_calls_and_control_flow_are_not_definitions() -> None:
    patch = (
        "@@ -1,4 +1,4 @@ void run(int n) {\n"
        "   if (n > 0) {\n"
        "-    launch(n,\n"
        "+    launch(n + 1,\n"
        "            2);\n"
        "   }\n"
    )
    assert summary(symbols_from_hunks("r.cc", parse_patch(patch).hunks, "cpp")) == {("run", "function", "modified")}
