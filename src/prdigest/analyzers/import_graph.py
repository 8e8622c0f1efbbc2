"""Which files of a repository import which: the fan-in of a file, from the code itself.

Read from one tree of the repository (every source file's text): Python by its syntax tree
(`ast`: ``import a.b``, ``from .m import x``), and by their import statements JavaScript and
TypeScript (relative specifiers of ``import``/``export … from``/``require``/``import()``),
Go (import paths under the module that ``go.mod`` declares, a package being its directory),
Rust (``use crate::…``/``super::``/``self::`` and the workspace's own crates, from the
``Cargo.toml`` files) and C/C++ (``#include`` of a header in the tree; a source file counts the
importers of its header of the same name). Imports of outside packages are not edges.

A file's fan-in is how many other files, tests aside, import it: a change there reaches
every one of them, which is why a reader looks more closely at it.
"""

from __future__ import annotations

import ast
import posixpath
import re
import tomllib
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from prdigest.analyzers.test_support import test_support_dirs

PY_SUFFIXES = (".py", ".pyi")
JS_SUFFIXES = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")
C_SOURCES = (".c", ".cc", ".cpp", ".cxx", ".cu")
C_HEADERS = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl")
GO_SUFFIX, RUST_SUFFIX = ".go", ".rs"
GRAPH_SUFFIXES = (*PY_SUFFIXES, *JS_SUFFIXES, *C_SOURCES, *C_HEADERS, GO_SUFFIX, RUST_SUFFIX)
MANIFESTS = ("go.mod", "Cargo.toml")
MAX_TEXT_BYTES = 512 * 1024  # a larger file is generated or vendored: its imports are not read
# Outside test frameworks, by the name code imports them under: a file that imports one is
# test code wherever it sits (a test server, a fixtures module), unless the tree itself
# provides that name (pytest's own repository).
PY_TEST_FRAMEWORKS = frozenset({"pytest", "_pytest", "unittest", "hypothesis", "nose", "nose2", "testtools"})
GO_TEST_FRAMEWORKS = frozenset({"testing", "net/http/httptest", "testing/fstest", "testing/iotest"})
GO_TEST_FRAMEWORK_PREFIXES = ("github.com/stretchr/testify", "github.com/onsi/ginkgo", "github.com/onsi/gomega")
JS_TEST_FRAMEWORKS = frozenset({"jest", "@jest/globals", "vitest", "mocha", "chai", "sinon", "ava", "supertest"})
JS_TEST_FRAMEWORK_PREFIXES = ("@testing-library/", "@playwright/test")

_TEST_PART = re.compile(r"(?:^|/)(?:tests?|testing|__tests__|spec|testdata|benches|e2e)(?:/|$)|(?:^|/)test_[^/]*$")
_TEST_NAME = re.compile(r"(?:_test\.go|_tests?\.py|\.(?:test|spec)\.[cm]?[jt]sx?|_test\.(?:cc|cpp|c))$")

# Every specifier of an import: a relative one names a file of the tree, any other a package.
_JS_IMPORT = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*|^\s*import\s+)(["'])([^"'\n]+)\1""", re.MULTILINE
)
_GO_SINGLE = re.compile(r'^\s*import\s+(?:[\w.]+\s+)?"([^"]+)"', re.MULTILINE)
_GO_BLOCK = re.compile(r"^\s*import\s*\((.*?)\)", re.MULTILINE | re.DOTALL)
_GO_PATH = re.compile(r'"([^"]+)"')
_GO_MODULE = re.compile(r"^\s*module\s+(\S+)", re.MULTILINE)
_RUST_USE = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", re.MULTILINE)
_C_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.MULTILINE)


def is_test_path(path: str) -> bool:
    """A test, benchmark or fixture file: it imports what it checks, which says nothing of
    how much of the product depends on it."""
    return bool(_TEST_PART.search(path) or _TEST_NAME.search(path))


def is_graph_file(path: str) -> bool:
    """Whether the graph reads this file's text (a source file, or a manifest it needs)."""
    name = posixpath.basename(path)
    return name in MANIFESTS or path.endswith(
        (*PY_SUFFIXES, *JS_SUFFIXES, *C_SOURCES, *C_HEADERS, GO_SUFFIX, RUST_SUFFIX)
    )


@dataclass(frozen=True)
class ImportGraph:
    """Who imports each file (test files aside), read at one commit of the repository."""

    commit: str
    importers: Mapping[str, frozenset[str]]
    # Folders of test code outside the test paths (a test server, fixtures' helpers): see
    # `test_support.test_support_dirs`.
    test_support: frozenset[str] = frozenset()

    def is_test_support(self, path: str) -> bool:
        """Whether ``path`` lies in a folder only tests use (`test_support`)."""
        return any(path.startswith(folder + "/") for folder in self.test_support)

    def fan_in(self, path: str) -> int:
        """How many other files import ``path``; for a C/C++ source file, its header's."""
        own = len(self.importers.get(path, ()))
        if path.endswith(C_SOURCES):
            stem = posixpath.splitext(posixpath.basename(path))[0]
            headers = [p for p in self._headers_by_stem().get(stem, ()) if p != path]
            return max([own, *(len(self.importers.get(h, ())) for h in headers)])
        return own

    def _headers_by_stem(self) -> Mapping[str, list[str]]:
        cached = self.__dict__.get("_stems")
        if cached is None:
            stems: dict[str, list[str]] = defaultdict(list)
            for path in self.importers:
                if path.endswith(C_HEADERS):
                    stems[posixpath.splitext(posixpath.basename(path))[0]].append(path)
            cached = dict(stems)
            object.__setattr__(self, "_stems", cached)
        return cached


def build_graph(commit: str, texts: Mapping[str, str]) -> ImportGraph:
    """The import graph of one tree: ``texts`` maps each path to its text (every path the
    tree has for which `is_graph_file` holds; other paths may be given too)."""
    paths = set(texts)
    python, js, go = _PythonResolver(paths), _JsResolver(paths), _GoResolver(paths, texts)
    resolvers: list[tuple[tuple[str, ...], Callable[[str, str], Iterable[str]]]] = [
        (PY_SUFFIXES, python.targets),
        (JS_SUFFIXES, js.targets),
        ((GO_SUFFIX,), go.targets),
        ((RUST_SUFFIX,), _RustResolver(paths, texts).targets),
        ((*C_SOURCES, *C_HEADERS), _CResolver(paths).targets),
    ]

    def edges_of(sources: Iterable[str]) -> dict[str, set[str]]:
        edges: dict[str, set[str]] = {}
        for path in sources:
            text = texts[path]
            if len(text) > MAX_TEXT_BYTES:
                continue
            for suffixes, targets in resolvers:
                if path.endswith(suffixes):
                    edges[path] = {target for target in targets(path, text) if target != path}
                    break
        return edges

    product = edges_of(path for path in texts if not is_test_path(path))
    importers: dict[str, set[str]] = defaultdict(set)
    for source, targets in product.items():
        for target in targets:
            importers[target].add(source)
    # read before the tests' pass below, which would add the test files themselves
    framework_users = python.framework_users | js.framework_users | go.framework_users
    support: frozenset[str] = frozenset()
    if framework_users:  # only then can a folder be test support: read what the tests import
        tests = edges_of(path for path in texts if is_test_path(path))
        support = test_support_dirs(product, tests, framework_users)
    return ImportGraph(commit=commit, importers={k: frozenset(v) for k, v in importers.items()}, test_support=support)


class _PythonResolver:
    """Dotted module names to files, by every suffix of each file's path (``src/pkg/m.py``
    is ``pkg.m`` and ``src.pkg.m``); a name two files share is no edge."""

    def __init__(self, paths: set[str]) -> None:
        by_name: dict[str, set[str]] = defaultdict(set)
        for path in paths:
            if not path.endswith(PY_SUFFIXES):
                continue
            parts = posixpath.splitext(path)[0].split("/")
            if parts[-1] == "__init__":
                parts = parts[:-1]
            for start in range(len(parts)):
                if parts[start:]:
                    by_name[".".join(parts[start:])].add(path)
        self._by_name = {name: next(iter(found)) for name, found in by_name.items() if len(found) == 1}
        self._paths = paths
        self._tops = {name for name in by_name if "." not in name}
        self.framework_users: set[str] = set()  # files importing an outside test framework

    def targets(self, path: str, text: str) -> Iterable[str]:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # invalid escapes in old code: still parsed
                tree = ast.parse(text)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            return []  # Python 2 or broken code: its imports are not known
        found: list[str] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    found.extend(self._module(alias.name))
                    self._note_framework(path, alias.name)
            elif isinstance(node, ast.ImportFrom):
                if not node.level and node.module:
                    self._note_framework(path, node.module)
                base = self._relative_base(path, node.level, node.module) if node.level else node.module
                if base is None:
                    continue
                for alias in node.names:
                    # `from pkg import mod` imports a module when one is there, else a name of pkg
                    hit = self._module(f"{base}.{alias.name}") if alias.name != "*" else []
                    found.extend(hit or self._module(base))
        return found

    def _note_framework(self, path: str, name: str) -> None:
        top = name.split(".", 1)[0]
        if top in PY_TEST_FRAMEWORKS and top not in self._tops:  # the tree's own module is no framework
            self.framework_users.add(path)

    def _module(self, name: str) -> list[str]:
        hit = self._by_name.get(name)
        return [hit] if hit else []

    def _relative_base(self, path: str, level: int, module: str | None) -> str | None:
        package = posixpath.dirname(path).split("/") if posixpath.dirname(path) else []
        if level - 1 > len(package):
            return None
        parts = package[: len(package) - (level - 1)] + (module.split(".") if module else [])
        return ".".join(parts) if parts else None


class _JsResolver:
    """Relative specifiers to files: as written, with an extension added, as a folder's
    index, or a ``.js`` specifier naming its TypeScript source."""

    def __init__(self, paths: set[str]) -> None:
        self._paths = paths
        self.framework_users: set[str] = set()  # files importing a test framework

    def targets(self, path: str, text: str) -> Iterable[str]:
        base = posixpath.dirname(path)
        for match in _JS_IMPORT.finditer(text):
            spec = match.group(2)
            if spec.startswith(("./", "../")):
                target = self._resolve(posixpath.normpath(posixpath.join(base, spec)))
                if target:
                    yield target
            elif spec in JS_TEST_FRAMEWORKS or spec.startswith(JS_TEST_FRAMEWORK_PREFIXES):
                self.framework_users.add(path)

    def _resolve(self, spec: str) -> str | None:
        stem, ext = posixpath.splitext(spec)
        candidates = [spec]
        if ext in (".js", ".jsx", ".mjs", ".cjs"):
            candidates += [stem + ".ts", stem + ".tsx", stem + ".mts", stem + ".cts"]
        candidates += [spec + suffix for suffix in JS_SUFFIXES]
        candidates += [f"{spec}/index{suffix}" for suffix in JS_SUFFIXES]
        return next((c for c in candidates if c in self._paths), None)


class _GoResolver:
    """Import paths under a module of the tree (``go.mod``'s ``module``) to the files of
    the package directory they name."""

    def __init__(self, paths: set[str], texts: Mapping[str, str]) -> None:
        self._modules: list[tuple[str, str]] = []  # (module path, its directory), longest first
        for path in paths:
            if posixpath.basename(path) == "go.mod":
                match = _GO_MODULE.search(texts.get(path, ""))
                if match:
                    self._modules.append((match.group(1), posixpath.dirname(path)))
        self._modules.sort(key=lambda item: -len(item[0]))
        self._by_dir: dict[str, list[str]] = defaultdict(list)
        for path in paths:
            if path.endswith(GO_SUFFIX) and not path.endswith("_test.go"):
                self._by_dir[posixpath.dirname(path)].append(path)
        self.framework_users: set[str] = set()  # files importing a test framework

    def targets(self, path: str, text: str) -> Iterable[str]:
        imported = [m.group(1) for m in _GO_SINGLE.finditer(text)]
        for block in _GO_BLOCK.finditer(text):
            imported += [m.group(1) for m in _GO_PATH.finditer(block.group(1))]
        own = posixpath.dirname(path)
        frameworks = [n for n in imported if n in GO_TEST_FRAMEWORKS or n.startswith(GO_TEST_FRAMEWORK_PREFIXES)]
        # a module of the tree itself (testify's own repository) is no outside framework
        if any(self._directory(name) is None for name in frameworks):
            self.framework_users.add(path)
        for name in imported:
            directory = self._directory(name)
            if directory is not None and directory != own:
                yield from self._by_dir.get(directory, ())

    def _directory(self, name: str) -> str | None:
        for module, root in self._modules:
            if name == module or name.startswith(module + "/"):
                rest = name[len(module) :].lstrip("/")
                return posixpath.normpath(posixpath.join(root, rest)) if rest or root else ""
        return None


class _RustResolver:
    """``use`` paths to module files: ``crate::a::b`` within the file's crate, ``super::``
    and ``self::`` from the file's module, another crate of the workspace by its name."""

    def __init__(self, paths: set[str], texts: Mapping[str, str]) -> None:
        self._paths = paths
        self._crates: dict[str, str] = {}  # crate name (underscored) -> its src directory
        self._roots: list[str] = []  # src directories, longest first
        # Outermost manifests first, and a name keeps its first crate: a test fixture's
        # Cargo.toml named like the real crate (``tests/…/Cargo.toml``) must not take it, and
        # a set's order must not decide which does.
        for path in sorted(paths, key=lambda p: (p.count("/"), p)):
            if posixpath.basename(path) != "Cargo.toml":
                continue
            try:
                manifest = tomllib.loads(texts.get(path, ""))
            except tomllib.TOMLDecodeError:
                continue
            package = manifest.get("package")
            src = posixpath.join(posixpath.dirname(path), "src") if posixpath.dirname(path) else "src"
            if isinstance(package, dict) and isinstance(package.get("name"), str):
                self._crates.setdefault(package["name"].replace("-", "_"), src)
            self._roots.append(src)
        self._roots.sort(key=lambda root: -len(root))

    def targets(self, path: str, text: str) -> Iterable[str]:
        root = next((r for r in self._roots if path.startswith(r + "/")), None)
        for match in _RUST_USE.finditer(text):
            head = match.group(1).split("{", 1)[0].strip().rstrip(":")
            segments = [s.strip() for s in head.split("::") if s.strip()]
            if not segments:
                continue
            first = segments[0]
            if first == "crate" and root is not None:
                base, rest = root, segments[1:]
            elif first in ("self", "super"):
                base, rest = self._module_dir(path), segments
                while rest and rest[0] in ("self", "super"):
                    if rest[0] == "super":
                        base = posixpath.dirname(base)
                    rest = rest[1:]
            elif first in self._crates:
                base, rest = self._crates[first], segments[1:]
            else:
                continue
            target = self._module_file(base, rest)
            if target:
                yield target

    def _module_dir(self, path: str) -> str:
        """The directory a file's child modules live in (``a/mod.rs`` → ``a``, ``a.rs`` → ``a``)."""
        name = posixpath.basename(path)
        if name in ("mod.rs", "lib.rs", "main.rs"):
            return posixpath.dirname(path)
        return posixpath.splitext(path)[0]

    def _module_file(self, base: str, segments: list[str]) -> str | None:
        """The longest prefix of ``segments`` that names a module file under ``base``; the
        crate root itself when none does."""
        for end in range(len(segments), 0, -1):
            stem = posixpath.join(base, *segments[:end])
            for candidate in (stem + RUST_SUFFIX, posixpath.join(stem, "mod.rs")):
                if candidate in self._paths:
                    return candidate
        for root_file in ("lib.rs", "main.rs", "mod.rs"):
            candidate = posixpath.join(base, root_file)
            if candidate in self._paths:
                return candidate
        return None


class _CResolver:
    """Included headers to files: beside the including file first, else the one header of
    the tree whose path ends with the included path."""

    def __init__(self, paths: set[str]) -> None:
        self._paths = paths
        by_suffix: dict[str, set[str]] = defaultdict(set)
        for path in paths:
            if path.endswith((*C_HEADERS, *C_SOURCES)):
                parts = path.split("/")
                for start in range(len(parts)):
                    by_suffix["/".join(parts[start:])].add(path)
        self._by_suffix = {suffix: next(iter(found)) for suffix, found in by_suffix.items() if len(found) == 1}

    def targets(self, path: str, text: str) -> Iterable[str]:
        base = posixpath.dirname(path)
        for match in _C_INCLUDE.finditer(text):
            included = match.group(1)
            beside = posixpath.normpath(posixpath.join(base, included))
            if beside in self._paths:
                yield beside
            elif included in self._by_suffix:
                yield self._by_suffix[included]
