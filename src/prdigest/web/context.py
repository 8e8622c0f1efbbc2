"""Per-application state handed to the routes (no module-level globals)."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar, cast

from starlette.requests import Request

from prdigest.config import Settings
from prdigest.store.store import Store
from prdigest.web.facets import FacetRefresher
from prdigest.web.page_cache import DataGeneration, ResponseCache
from prdigest.web.templating import Renderer

K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True)
class WebOptions:
    page_size: int = 30
    search_page_size: int = 20
    report_cache_size: int = 512
    # Rendered feed entries (HTML of one <li>), keyed on everything the entry shows.
    fragment_cache_size: int = 8192
    facet_ttl_seconds: float = 300.0
    # Whole feed and search responses (HTML and JSON), filed under the database's write
    # generation (prdigest.web.page_cache); 0 entries turns the cache off.
    response_cache_entries: int = 1024
    response_cache_bytes: int = 64 * 1024 * 1024
    # How stale a cached page may be: the generation is re-read at most this often (0: every request).
    generation_check_seconds: float = 1.0
    # Reports missing a narrative get the extractive one on first view; the configured LLM
    # is called from a page view only when this is set (it is slow and may cost money).
    narrate_with_llm: bool = False


class BoundedCache(Generic[K, V]):
    """A small thread-safe LRU map with an optional time to live."""

    def __init__(self, size: int, ttl: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self._size = size
        self._ttl = ttl
        self._clock = clock
        self._items: OrderedDict[K, tuple[float, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return None
            stored_at, value = found
            if self._ttl is not None and self._clock() - stored_at > self._ttl:
                del self._items[key]
                return None
            self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = (self._clock(), value)
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


@dataclass
class WebContext:
    store: Store
    settings: Settings
    options: WebOptions
    renderer: Renderer
    report_cache: BoundedCache[object, object] = field(init=False)
    page_cache: BoundedCache[object, str] = field(init=False)
    fragment_cache: BoundedCache[object, str] = field(init=False)
    facets: FacetRefresher = field(init=False)
    generation: DataGeneration = field(init=False)
    response_cache: ResponseCache = field(init=False)

    def __post_init__(self) -> None:
        self.report_cache = BoundedCache(self.options.report_cache_size)
        self.page_cache = BoundedCache(self.options.report_cache_size)
        self.fragment_cache = BoundedCache(self.options.fragment_cache_size)
        self.facets = FacetRefresher(self.store, self.options.facet_ttl_seconds)
        self.generation = DataGeneration(self.store, self.options.generation_check_seconds)
        self.response_cache = ResponseCache(self.options.response_cache_entries, self.options.response_cache_bytes)


def web_context(request: Request) -> WebContext:
    return cast(WebContext, request.app.state.web)
