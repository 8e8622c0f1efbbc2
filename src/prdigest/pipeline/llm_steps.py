"""The `StepCache` the pipeline hands the LLM narrator: step answers kept in the store's
``http_cache`` table (under a ``llm-step:`` pseudo-URL and their own method, so they never
meet a GitHub response), which every database already has."""

from __future__ import annotations

from prdigest.store.http_cache import HttpCache
from prdigest.store.store import Store

STEP_METHOD = "LLM-STEP"


class StoredSteps:
    def __init__(self, store: Store) -> None:
        self._cache = HttpCache(store)

    def recall(self, key: str) -> str | None:
        found = self._cache.get(_url(key), method=STEP_METHOD)
        return None if found is None else found.body

    def remember(self, key: str, content: str) -> None:
        self._cache.put(_url(key), content, etag=None, last_modified=None, method=STEP_METHOD)


def _url(key: str) -> str:
    return f"llm-step:{key}"
