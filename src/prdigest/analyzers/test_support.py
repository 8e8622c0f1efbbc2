"""Folders of test code that no test-path rule names: found by who imports them.

A test server (``dummyserver/``), a fixtures package or a helpers folder beside the tests
is test code, yet its path says nothing of it. The import graph proves it: a folder is test
support when

- one of its files imports an outside test framework (pytest, Go's ``testing``, jest …),
- tests import it, and nothing else outside the folder does,
- and it imports the rest of the tree (the product it serves): a library that is itself a
  test tool (a pytest plugin) imports nothing of the tree outside its own folder, so it
  stays product code.

The outermost such folder is named; the tree's root never is.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping


def _ancestors(path: str) -> Iterable[str]:
    folder = posixpath.dirname(path)
    while folder:
        yield folder
        folder = posixpath.dirname(folder)


def _inside(path: str, folder: str) -> bool:
    return path.startswith(folder + "/")


def _imported_from_outside(edges: Mapping[str, set[str]], folder: str) -> bool:
    """Whether a file outside ``folder`` imports one inside it."""
    return any(
        not _inside(source, folder) and any(_inside(target, folder) for target in targets)
        for source, targets in edges.items()
    )


def test_support_dirs(
    product: Mapping[str, set[str]], tests: Mapping[str, set[str]], framework_users: Iterable[str]
) -> frozenset[str]:
    """The folders only tests use. ``product`` and ``tests`` map each non-test and each test
    file to the files of the tree it imports; ``framework_users`` are the non-test files
    that import an outside test framework."""
    found: set[str] = set()
    for folder in sorted({folder for path in framework_users for folder in _ancestors(path)}, key=len):
        if any(_inside(folder, kept) for kept in found):
            continue  # an outer folder already holds it
        if _imported_from_outside(product, folder):
            continue
        used_by_tests = _imported_from_outside(tests, folder)
        uses_the_tree = any(
            _inside(source, folder) and any(not _inside(target, folder) for target in targets)
            for source, targets in product.items()
        )
        if used_by_tests and uses_the_tree:
            found.add(folder)
    return frozenset(found)
