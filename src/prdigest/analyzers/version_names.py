"""The names a module-level version constant goes by (``__version__ = "1.2"``): one set for the
analyzers (a change to them alone is a release, not code) and the narrator (which says so).
No imports, so the narrator reads it without loading the syntax analyzers."""

from __future__ import annotations

VERSION_NAMES = frozenset({"__version__", "VERSION", "version", "__VERSION__", "_version"})
