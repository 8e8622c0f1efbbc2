"""Definitions and qualified names per language, straight from tree-sitter."""

from __future__ import annotations

import pytest

from prdigest.analyzers.symbols.extract import MAX_PARSE_CHARS, extract_definitions
from prdigest.analyzers.symbols.languages import grammar_key_for_path, language_for_path


def names(source: str, key: str) -> dict[str, str]:
    return {d.name: d.kind for d in extract_definitions(source, key)}


@pytest.mark.parametrize(
    ("path", "key", "language"),
    [
        ("a/b.py", "python", "python"),
        ("x.c", "c", "c"),
        ("x.h", "cpp", "cpp"),
        ("x.cc", "cpp", "cpp"),
        ("k.cu", "cuda", "cuda"),
        ("k.CUH", "cuda", "cuda"),
        ("m.go", "go", "go"),
        ("lib.rs", "rust", "rust"),
        ("a.mjs", "javascript", "javascript"),
        ("a.jsx", "javascript", "javascript"),
        ("a.ts", "typescript", "typescript"),
        ("a.tsx", "tsx", "typescript"),
    ],
)
def test_extensions_map_to_grammars(path: str, key: str, language: str) -> None:
    assert grammar_key_for_path(path) == key
    assert language_for_path(path) == language


@pytest.mark.parametrize("path", ["run.sh", "ci.yaml", "pyproject.toml", "requirements.txt", "README.md", "Makefile"])
def test_other_files_have_no_grammar(path: str) -> None:
    assert grammar_key_for_path(path) is None


def test_python_classes_methods_functions_and_lines() -> None:
    source = (
        "import os\n"  # 1
        "\n"  # 2
        "@dataclass\n"  # 3
        "class HummingConfig(Base):\n"  # 4
        "    bits: int = 4\n"  # 5
        "\n"  # 6
        "    def __init__(self, bits):\n"  # 7
        "        def helper():\n"  # 8
        "            return bits\n"  # 9
        "        self.bits = helper()\n"  # 10
        "\n"  # 11
        "async def fetch():\n"  # 12
        "    pass\n"  # 13
    )
    found = {d.name: d for d in extract_definitions(source, "python")}
    assert set(found) == {"HummingConfig", "HummingConfig.__init__", "HummingConfig.__init__.helper", "fetch"}
    assert found["HummingConfig"].kind == "class"
    assert (found["HummingConfig"].start_line, found["HummingConfig"].end_line) == (3, 10)  # with decorator
    assert found["HummingConfig.__init__"].kind == "method"
    assert (found["HummingConfig.__init__"].start_line, found["HummingConfig.__init__"].end_line) == (7, 10)
    assert found["HummingConfig.__init__.helper"].kind == "function"
    assert (found["fetch"].kind, found["fetch"].start_line, found["fetch"].end_line) == ("function", 12, 13)


def test_cpp_class_methods_qualified_and_free_functions() -> None:
    source = (
        "namespace ops {\n"
        "class Foo {\n"
        " public:\n"
        "  int inline_method(int x) { return x; }\n"
        "  int bar(int x);\n"
        "};\n"
        "}  // namespace ops\n"
        "int Foo::bar(int x) {\n"
        "  return x + 1;\n"
        "}\n"
        "static int* free_fn(void) { return nullptr; }\n"
        "template <typename T> T twice(T a) { return a + a; }\n"
        "struct Pair { int a; int b; };\n"
        "struct Pair make_pair_value();\n"
    )
    found = names(source, "cpp")
    assert found["ops::Foo"] == "class"
    assert found["ops::Foo::inline_method"] == "method"
    assert found["Foo::bar"] == "method"
    assert found["free_fn"] == "function"
    assert found["twice"] == "function"
    assert found["Pair"] == "struct"
    assert "bar" not in found
    assert "ops::Foo::bar" not in found
    assert "make_pair_value" not in found


def test_cuda_kernel() -> None:
    source = (
        "__global__ void scale_kernel(float* x, float s, int n) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  if (i < n) x[i] *= s;\n"
        "}\n"
        "void launch(float* x, int n) { scale_kernel<<<(n + 255) / 256, 256>>>(x, 2.0f, n); }\n"
    )
    definitions = extract_definitions(source, "cuda")
    assert [(d.name, d.kind, d.start_line, d.end_line) for d in definitions] == [
        ("scale_kernel", "function", 1, 4),
        ("launch", "function", 5, 5),
    ]


def test_go_receivers_and_types() -> None:
    source = (
        "package server\n"
        "type Server struct {\n\taddr string\n}\n"
        "type Handler interface {\n\tServe()\n}\n"
        "func (s *Server) Start(port int) error {\n\treturn nil\n}\n"
        "func (b Box[T]) Get() T {\n\treturn b.v\n}\n"
        "func New() *Server {\n\treturn &Server{}\n}\n"
    )
    assert names(source, "go") == {
        "Server": "struct",
        "Handler": "interface",
        "Server.Start": "method",
        "Box.Get": "method",
        "New": "function",
    }


def test_rust_impl_trait_and_module() -> None:
    source = (
        "pub struct Cache { size: usize }\n"
        "impl Cache {\n    pub fn new() -> Self { Cache { size: 0 } }\n}\n"
        "impl fmt::Display for Cache {\n"
        "    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }\n"
        "}\n"
        "trait Evict { fn evict(&mut self) {} }\n"
        "mod util { pub fn helper() {} }\n"
        "fn main() {}\n"
    )
    found = {(d.name, d.kind) for d in extract_definitions(source, "rust")}
    assert found == {
        ("Cache", "struct"),
        ("Cache", "impl"),
        ("Cache::new", "method"),
        ("fmt::Display for Cache", "impl"),
        ("Cache::fmt", "method"),
        ("Evict", "trait"),
        ("Evict::evict", "method"),
        ("util::helper", "function"),
        ("main", "function"),
    }


def test_typescript_class_methods_arrow_functions_and_types() -> None:
    source = (
        "export class Store<T> {\n"
        "  get(key: string): T | undefined { return undefined; }\n"
        "  private onChange = (value: T): void => {};\n"
        "}\n"
        "export const debounce = (fn: () => void, ms: number) => fn;\n"
        "interface Options { ttl: number }\n"
        "enum Mode { A, B }\n"
        "const notAFunction = 3;\n"
    )
    assert names(source, "typescript") == {
        "Store": "class",
        "Store.get": "method",
        "Store.onChange": "method",
        "debounce": "function",
        "Options": "interface",
        "Mode": "enum",
    }


def test_tsx_component() -> None:
    source = "export function App(props: Props) {\n  return <div>{props.title}</div>;\n}\n"
    assert names(source, "tsx") == {"App": "function"}


def test_javascript_functions_and_classes() -> None:
    source = (
        "function parse(text) {\n  return JSON.parse(text);\n}\n"
        "class Queue {\n  push(item) { this.items.push(item); }\n  handler = () => 1;\n}\n"
        "const later = function () {};\n"
        "function* ids() { yield 1; }\n"
    )
    assert names(source, "javascript") == {
        "parse": "function",
        "Queue": "class",
        "Queue.push": "method",
        "Queue.handler": "method",
        "later": "function",
        "ids": "function",
    }


def test_broken_and_odd_sources_do_not_crash() -> None:
    assert extract_definitions("", "python") == []
    broken = "def ok():\n    return 1\n\ndef broken(:\n    ((\nclass Half\n"
    assert "ok" in names(broken, "python")
    assert names("\ufffd\ufffd int main( {", "cpp") is not None
    assert extract_definitions("x" * (MAX_PARSE_CHARS + 1), "python") == []
    lone_surrogate = "def f():\n    return '\udcff'\n"
    assert names(lone_surrogate, "python") == {"f": "function"}


COMMONJS = """'use strict';
var utils = require('./utils');

module.exports = function xhrAdapter(config) {
  request.onerror = function handleError() {
    reject(config);
  };
};

function Axios(config) {}

Axios.prototype.request = function request(config) {
  return config;
};

utils.forEach = function forEach(obj, fn) {};
exports.settle = function (resolve) {};
module.exports = function () {};
module.exports = Axios;
"""


def test_javascript_functions_assigned_to_members_and_what_they_export() -> None:
    # CommonJS code defines by assignment: a report named the file (`lib/adapters/xhr.js`)
    # where `xhrAdapter` changed, and could not tell what the module hands out.
    found = {d.name: (d.kind, d.start_line, d.exported) for d in extract_definitions(COMMONJS, "javascript")}
    assert found == {
        "xhrAdapter": ("function", 4, True),
        "xhrAdapter.request.onerror": ("function", 5, False),
        "Axios": ("function", 10, True),
        "Axios.request": ("method", 12, True),
        "utils.forEach": ("function", 16, False),
        "settle": ("function", 17, True),
    }
