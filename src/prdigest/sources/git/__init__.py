"""A local git clone as a pull-request source (see ``source.GitSource``).

The names below are loaded on first use (PEP 562): `prdigest.sources.git.clone` (where a sync
starts, whether anything is new) can then be imported without the record models (pydantic).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from prdigest.sources.git.cat_file import read_file_contents
    from prdigest.sources.git.clone import GitSyncCounters, GitSyncOptions
    from prdigest.sources.git.source import GitSource

__all__ = ["GitSource", "GitSyncCounters", "GitSyncOptions", "read_file_contents"]

_WHERE = {
    "GitSource": "prdigest.sources.git.source",
    "GitSyncCounters": "prdigest.sources.git.clone",
    "GitSyncOptions": "prdigest.sources.git.clone",
    "read_file_contents": "prdigest.sources.git.cat_file",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'prdigest.sources.git' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
