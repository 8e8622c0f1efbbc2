"""Parsed files kept between PRs: one PR's new file is often the next PR's old file.

Within a run the PRs come oldest first, so the contents a PR leaves a file in are usually
the contents the next PR touching that file starts from. Keeping the tree and definitions
of recent contents saves that file's full parse and definition walk. Only error-free trees
are kept: for those, an incremental parse and a fresh parse give the same tree, so a cached
tree yields exactly what parsing again would. Bounded by source bytes (a tree takes about
25 times its source in memory); least recently used goes first. One cache per process.
"""

from __future__ import annotations

from collections import OrderedDict

import tree_sitter

from prdigest.analyzers.symbols.extract import Definition

_Key = tuple[str, bytes]  # (grammar key, source bytes)


class TreeCache:
    def __init__(self, max_source_bytes: int) -> None:
        self.max_source_bytes = max_source_bytes
        self._entries: OrderedDict[_Key, tuple[tree_sitter.Tree, list[Definition]]] = OrderedDict()
        self._size = 0

    def get(self, grammar_key: str, source: bytes) -> tuple[tree_sitter.Tree, list[Definition]] | None:
        """The cached tree (now the caller's, safe to edit) and its definitions, or None."""
        # Taken out on a hit: in a linear history each contents are one PR's new file and
        # the next one's old file, so a hit is usually the last; this halves what is kept.
        found = self._entries.pop((grammar_key, source), None)
        if found is None:
            return None
        self._size -= len(source)
        return found

    def clear(self) -> None:
        self._entries.clear()
        self._size = 0

    def put(self, grammar_key: str, source: bytes, tree: tree_sitter.Tree, definitions: list[Definition]) -> None:
        """Keep a tree not edited since it was parsed from ``source`` (only if it has no errors)."""
        if tree.root_node.has_error or len(source) > self.max_source_bytes:
            return
        key = (grammar_key, source)
        if key in self._entries:
            self._entries.move_to_end(key)
            return
        self._entries[key] = (tree.copy(), definitions)
        self._size += len(source)
        while self._size > self.max_source_bytes:
            (_grammar, old_source), _value = self._entries.popitem(last=False)
            self._size -= len(old_source)


# Per process, like functools caches: analysis results never depend on its contents.
TREES = TreeCache(max_source_bytes=1_500_000)
