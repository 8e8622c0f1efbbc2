"""A package's names loaded on first use (PEP 562 module ``__getattr__``).

Packages whose light modules must import without their heavy siblings (the SQLite-only
reads of `prdigest.store`, the git clone probe of `prdigest.sources.git`) name where each
exported name lives and load that module only when the name is asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_getattr(package: str, where: Mapping[str, str]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: ``name`` from the module ``where[name]``."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module), name)

    return __getattr__
