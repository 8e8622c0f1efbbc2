"""A local git clone as a pull-request source (see ``source.GitSource``).

The names below are loaded on first use (PEP 562): `prdigest.sources.git.clone` (where a sync
starts, whether anything is new) can then be imported without the record models (pydantic).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prdigest.lazy_exports import lazy_getattr

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


__getattr__ = lazy_getattr(__name__, _WHERE)
