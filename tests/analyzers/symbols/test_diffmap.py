"""Changed symbols of a file from its old and new contents and its real unified diff."""

from __future__ import annotations

from typing import Any

from prdigest.analyzers.symbols import extract_symbol_changes
from prdigest.analyzers.symbols.diffmap import owning_definitions
from prdigest.analyzers.symbols.extract import MAX_PARSE_CHARS, Definition
from prdigest.models.facts import SymbolChange
from prdigest.models.pullrequest import FileChange

HUMMING_BEFORE = '''\
from typing import TYPE_CHECKING

try:
    import humming
except ImportError:
    humming = None


def assert_humming_available():
    if humming is None:
        raise ImportError("humming is not installed; run pip install humming")


class HummingConfig(QuantizationConfig):
    """Config for humming quantization."""

    def __init__(self, bits: int, group_size: int) -> None:
        super().__init__()
        assert_humming_available()
        self.bits = bits
        self.group_size = group_size

    def get_name(self) -> str:
        return "humming"
'''

HUMMING_AFTER = '''\
from typing import TYPE_CHECKING

from vllm.platforms import current_platform

if current_platform.is_cuda():
    import humming


class HummingConfig(QuantizationConfig):
    """Config for humming quantization."""

    def __init__(self, bits: int, group_size: int) -> None:
        super().__init__()
        self.bits = bits
        self.group_size = group_size

    def get_name(self) -> str:
        return "humming"
'''


def summary(changes: list[SymbolChange]) -> set[tuple[str, str, str]]:
    return {(c.name, c.kind, c.change) for c in changes}


def test_seed_removed_function_and_modified_method(build: Any) -> None:
    change = build.file_change("vllm/quant/humming.py", HUMMING_BEFORE, HUMMING_AFTER)
    symbols = extract_symbol_changes(change)
    assert summary(symbols) == {
        ("assert_humming_available", "function", "removed"),
        ("HummingConfig.__init__", "method", "modified"),
    }
    by_name = {s.name: s for s in symbols}
    removed = by_name["assert_humming_available"]
    assert (removed.start_line, removed.end_line) == (9, 11)  # old file lines
    init = by_name["HummingConfig.__init__"]
    assert (init.start_line, init.end_line) == (12, 15)  # new file lines
    assert all(s.method == "tree-sitter" and s.language == "python" for s in symbols)


def test_python_added_function_and_class_body_change(build: Any) -> None:
    before = "class A:\n    x = 1\n\n    def f(self):\n        return 1\n"
    after = "class A:\n    x = 2\n\n    def f(self):\n        return 1\n\n\ndef g():\n    return A().f()\n"
    symbols = extract_symbol_changes(build.file_change("a.py", before, after))
    assert summary(symbols) == {("A", "class", "modified"), ("g", "function", "added")}


def test_added_and_removed_files(build: Any) -> None:
    source = "def a():\n    pass\n\n\nclass B:\n    def c(self):\n        pass\n"
    added = extract_symbol_changes(build.file_change("new.py", None, source))
    assert summary(added) == {("a", "function", "added"), ("B", "class", "added"), ("B.c", "method", "added")}
    removed = extract_symbol_changes(build.file_change("old.py", source, None))
    assert summary(removed) == {
        ("a", "function", "removed"),
        ("B", "class", "removed"),
        ("B.c", "method", "removed"),
    }


def test_cpp_method_and_free_function(build: Any) -> None:
    before = (
        "#include <vector>\n"
        "int Foo::bar(int x) {\n  int y = x;\n  return y;\n}\n\n"
        "static int helper(int a) {\n  return a;\n}\n\n"
        "int untouched() {\n  return 0;\n}\n"
    )
    after = (
        "#include <vector>\n"
        "int Foo::bar(int x) {\n  int y = x * 2;\n  return y;\n}\n\n"
        "static int helper(int a, int b) {\n  return a + b;\n}\n\n"
        "int untouched() {\n  return 0;\n}\n"
    )
    symbols = extract_symbol_changes(build.file_change("src/foo.cpp", before, after))
    assert summary(symbols) == {("Foo::bar", "method", "modified"), ("helper", "function", "modified")}
    assert {s.language for s in symbols} == {"cpp"}


def test_cuda_kernel_added(build: Any) -> None:
    before = "#include <cuda.h>\n\nvoid launch(float* x, int n) {\n}\n"
    after = (
        "#include <cuda.h>\n\n"
        "__global__ void zero_kernel(float* x, int n) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  if (i < n) x[i] = 0.0f;\n"
        "}\n\n"
        "void launch(float* x, int n) {\n"
        "  zero_kernel<<<(n + 255) / 256, 256>>>(x, n);\n"
        "}\n"
    )
    symbols = extract_symbol_changes(build.file_change("csrc/zero.cu", before, after))
    assert summary(symbols) == {("zero_kernel", "function", "added"), ("launch", "function", "modified")}
    kernel = next(s for s in symbols if s.name == "zero_kernel")
    assert (kernel.start_line, kernel.end_line, kernel.language) == (3, 6, "cuda")


def test_go_method_with_receiver(build: Any) -> None:
    before = "package s\n\nfunc (s *Server) Start(port int) error {\n\treturn nil\n}\n"
    after = "package s\n\nfunc (s *Server) Start(port int) error {\n\treturn s.listen(port)\n}\n"
    symbols = extract_symbol_changes(build.file_change("server.go", before, after))
    assert summary(symbols) == {("Server.Start", "method", "modified")}


def test_rust_impl_method(build: Any) -> None:
    before = "impl Cache {\n    fn get(&self) -> u32 {\n        1\n    }\n}\n"
    after = "impl Cache {\n    fn get(&self) -> u32 {\n        2\n    }\n\n    fn put(&mut self) {}\n}\n"
    symbols = extract_symbol_changes(build.file_change("src/cache.rs", before, after))
    assert summary(symbols) == {("Cache::get", "method", "modified"), ("Cache::put", "method", "added")}


def test_typescript_method_and_arrow_const(build: Any) -> None:
    before = (
        "export class Store {\n  get(key: string): number {\n    return 0;\n  }\n}\n\n"
        "export const double = (x: number): number => x * 2;\n"
    )
    after = (
        "export class Store {\n  get(key: string): number {\n    return this.cache[key] ?? 0;\n  }\n}\n\n"
        "export const double = (x: number): number => x + x;\n"
    )
    symbols = extract_symbol_changes(build.file_change("web/store.ts", before, after))
    assert summary(symbols) == {("Store.get", "method", "modified"), ("double", "function", "modified")}
    assert {s.language for s in symbols} == {"typescript"}


def test_javascript_function_renamed(build: Any) -> None:
    before = "function parseOld(text) {\n  return JSON.parse(text);\n}\n"
    after = "function parseNew(text) {\n  return JSON.parse(text);\n}\n"
    symbols = extract_symbol_changes(build.file_change("lib/parse.js", before, after))
    assert summary(symbols) == {("parseNew", "function", "added"), ("parseOld", "function", "removed")}


def test_files_without_symbols(build: Any) -> None:
    yaml = build.file_change(".github/workflows/ci.yaml", "on: push\n", "on: [push, pull_request]\n")
    assert extract_symbol_changes(yaml) == []
    shell = build.file_change("run.sh", "echo a\n", "f() { echo b; }\n")
    assert extract_symbol_changes(shell) == []
    binary = FileChange(path="model.py", binary=True, patch=None, content_before=None, content_after=None)
    assert extract_symbol_changes(binary) == []
    no_patch = FileChange(path="big.py", patch=None, content_before="def a(): pass\n", content_after="")
    assert extract_symbol_changes(no_patch) == []


def test_unchanged_contents_skip_parsing(build: Any) -> None:
    # Only context: no changed lines, nothing to attribute even though contents are present.
    change = build.file_change("a.py", "def f():\n    pass\n", "def f():\n    pass\n", patch="@@ -1,1 +1,1 @@\n x\n")
    assert extract_symbol_changes(change) == []


def test_huge_file_falls_back_to_hunk_headers(build: Any) -> None:
    filler = "# padding line\n" * (MAX_PARSE_CHARS // 15 + 10)
    before = "def grow():\n    return 1\n" + filler
    after = "def grow():\n    return 2\n" + filler
    symbols = extract_symbol_changes(build.file_change("big.py", before, after))
    assert summary(symbols) == {("grow", "function", "modified")}
    assert symbols[0].method == "hunk-header"


def test_owning_definitions_prefers_innermost() -> None:
    definitions = [
        Definition("A", "class", 1, 20),
        Definition("A.f", "method", 3, 8, parent=0),
        Definition("A.g", "method", 10, 20, parent=0),
    ]
    assert owning_definitions(definitions, (4, 5)) == [1]
    assert owning_definitions(definitions, (2, 12)) == [0, 2]
    assert owning_definitions(definitions, (30,)) == []
    assert owning_definitions([], (1,)) == []
