"""The import graph: who imports each file, read from the code of every language it knows;
tests import what they check and are no importers; outside packages are no edges."""

from __future__ import annotations

from prdigest.analyzers.import_graph import build_graph, is_test_path


def _importers(texts: dict[str, str], path: str) -> set[str]:
    return set(build_graph("c0ffee", texts).importers.get(path, ()))


def test_python_absolute_relative_and_module_imports() -> None:
    texts = {
        "src/pkg/__init__.py": "",
        "src/pkg/core.py": "import os\n",
        "src/pkg/app.py": "from pkg.core import run\n",
        "src/pkg/cli.py": "from . import core\n",
        "src/pkg/sub/deep.py": "from ..core import run\n",
        "src/other.py": "import pkg.core as c\n",
        "tests/test_core.py": "from pkg.core import run\n",
        "src/legacy.py": "print 'python 2'\nimport pkg.core\n",  # not parsed: no edge claimed
    }
    assert _importers(texts, "src/pkg/core.py") == {
        "src/pkg/app.py",
        "src/pkg/cli.py",
        "src/pkg/sub/deep.py",
        "src/other.py",
    }


def test_a_name_two_files_share_is_no_edge() -> None:
    texts = {"a/util.py": "", "b/util.py": "", "main.py": "import util\n"}
    graph = build_graph("c0ffee", texts)
    assert graph.fan_in("a/util.py") == graph.fan_in("b/util.py") == 0


def test_javascript_and_typescript_relative_specifiers() -> None:
    texts = {
        "src/utils.ts": "export const x = 1\n",
        "src/a.ts": "import { x } from './utils'\n",
        "src/b.ts": "import { x } from './utils.js'\n",  # ESM TypeScript names the emitted file
        "src/c.js": "const u = require('./utils')\n",
        "src/d/e.tsx": "export * from '../utils'\n",
        "src/f.ts": "const m = await import('./utils')\nimport react from 'react'\n",
        "src/utils.test.ts": "import { x } from './utils'\n",
    }
    assert _importers(texts, "src/utils.ts") == {"src/a.ts", "src/b.ts", "src/c.js", "src/d/e.tsx", "src/f.ts"}


def test_go_imports_of_a_package_of_the_module() -> None:
    texts = {
        "go.mod": "module example.com/web\n\ngo 1.21\n",
        "render/json.go": "package render\n",
        "render/xml.go": "package render\n",
        "context.go": 'package web\n\nimport (\n\t"net/http"\n\t"example.com/web/render"\n)\n',
        "binding/form.go": 'package binding\n\nimport "example.com/web/render"\n',
        "render/render_test.go": 'package render\n\nimport "example.com/web/render"\n',
    }
    graph = build_graph("c0ffee", texts)
    assert set(graph.importers["render/json.go"]) == {"context.go", "binding/form.go"}
    assert graph.fan_in("render/xml.go") == 2
    assert graph.fan_in("context.go") == 0


def test_rust_crate_super_and_workspace_crates() -> None:
    texts = {
        "Cargo.toml": "[workspace]\nmembers = ['core', 'cli']\n",
        "core/Cargo.toml": "[package]\nname = 'my-core'\n",
        "core/src/lib.rs": "pub mod routing;\n",
        "core/src/routing/mod.rs": "pub mod path;\n",
        "core/src/routing/path.rs": "pub fn parse() {}\n",
        "core/src/handler.rs": "use crate::routing::path::parse;\n",
        "core/src/routing/table.rs": "use super::path::{parse};\n",
        "cli/Cargo.toml": "[package]\nname = 'cli'\n",
        "cli/src/main.rs": "use my_core::routing::path;\nuse serde::Deserialize;\n",
    }
    assert _importers(texts, "core/src/routing/path.rs") == {
        "core/src/handler.rs",
        "core/src/routing/table.rs",
        "cli/src/main.rs",
    }


def test_c_includes_and_a_source_file_counts_its_headers_importers() -> None:
    texts = {
        "include/fmt/format.h": "#pragma once\n",
        "src/format.cc": '#include "fmt/format.h"\n',
        "src/os.cc": "#include <fmt/format.h>\n#include <stdio.h>\n",
        "include/fmt/ranges.h": '#include "format.h"\n',
        "test/format-test.cc": '#include "fmt/format.h"\n',
    }
    graph = build_graph("c0ffee", texts)
    assert set(graph.importers["include/fmt/format.h"]) == {"src/format.cc", "src/os.cc", "include/fmt/ranges.h"}
    assert graph.fan_in("src/format.cc") == 3  # what includes format.h reaches format.cc's code


def test_test_paths() -> None:
    assert is_test_path("tests/test_app.py")
    assert is_test_path("src/render_test.go")
    assert is_test_path("packages/vite/src/__tests__/x.ts")
    assert not is_test_path("src/contest.py")


def test_a_test_fixture_named_like_the_crate_does_not_take_its_name() -> None:
    # Test fixtures often hold a Cargo.toml of the crate's own name; whichever of them a set
    # gave last once took the name, so `use bat::error` found no file (the count changed run to run).
    fixtures = {f"tests/syntax/case{i}/Cargo.toml": "[package]\nname = 'bat'\n" for i in range(8)}
    texts = {
        **fixtures,
        "Cargo.toml": "[package]\nname = 'bat'\n",
        "src/lib.rs": "pub mod error;\n",
        "src/error.rs": "pub enum Error {}\n",
        "src/bin/bat/assets.rs": "use bat::error::*;\n",
    }
    assert _importers(texts, "src/error.rs") == {"src/bin/bat/assets.rs"}


SERVER = "import pytest\n\nfrom shop.cart import Cart\n\n\nclass ServerCase:\n    cart = Cart\n"


def test_a_folder_only_tests_import_that_uses_a_test_framework_is_test_support() -> None:
    texts = {
        "src/shop/__init__.py": "",
        "src/shop/cart.py": "class Cart:\n    pass\n",
        "testserver/__init__.py": "",
        "testserver/case.py": SERVER,
        "testserver/app.py": "from .case import ServerCase\n",  # no framework of its own: the folder counts
        "test/test_cart.py": "from testserver.case import ServerCase\n",
    }
    graph = build_graph("c0ffee", texts)
    assert graph.test_support == frozenset({"testserver"})
    assert graph.is_test_support("testserver/certs/server.pem")
    assert not graph.is_test_support("src/shop/cart.py")
    assert not graph.is_test_support("testserver2/x.py")


def test_a_folder_the_product_imports_or_that_serves_nothing_of_the_tree_is_no_test_support() -> None:
    texts = {
        "src/shop/__init__.py": "",
        "src/shop/cart.py": "class Cart:\n    pass\n",
        # the product itself imports this helper: users meet it
        "src/shop/checks/__init__.py": "import unittest\n\nfrom shop.cart import Cart\n",
        "src/shop/api.py": "from shop.checks import Cart\n",
        # a test tool of its own (a pytest plugin): it imports nothing else of the tree
        "plugin/__init__.py": "import pytest\n\n\ndef pytest_configure(config):\n    pass\n",
        # a folder that imports the tree and a framework, but no test imports it
        "examples/demo.py": "import unittest\n\nfrom shop.cart import Cart\n",
        "test/test_cart.py": "import plugin\nfrom shop.checks import Cart\n",
    }
    assert build_graph("c0ffee", texts).test_support == frozenset()


def test_the_trees_own_module_named_like_a_framework_is_no_framework() -> None:
    texts = {
        "src/pytest/__init__.py": "from _pytest.main import main\n",
        "src/_pytest/__init__.py": "",
        "src/_pytest/main.py": "def main():\n    pass\n",
        "tools/runner.py": "import pytest\nfrom _pytest.main import main\n",
        "testing/test_main.py": "from tools.runner import pytest\n",
    }
    assert build_graph("c0ffee", texts).test_support == frozenset()


def test_go_and_javascript_test_helpers_outside_the_test_paths() -> None:
    texts = {
        "go.mod": "module example.com/web\n\ngo 1.21\n",
        "router.go": "package web\n",
        "fakeserver/server.go": 'package fakeserver\n\nimport (\n\t"testing"\n\t"example.com/web"\n)\n',
        "router_test.go": 'package web_test\n\nimport "example.com/web/fakeserver"\n',
        "lib/index.js": "module.exports = {}\n",
        "fixtures/app.js": "const request = require('supertest')\nconst lib = require('../lib/index')\n",
        "test/app.test.js": "const app = require('../fixtures/app')\n",
    }
    assert build_graph("c0ffee", texts).test_support == frozenset({"fakeserver", "fixtures"})
