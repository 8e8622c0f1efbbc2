"""Whole-response caches for the feed and search pages, invalidated by the data's generation.

A feed or search response depends on the request (path, query string, HTML or JSON) and on
what is in the database. Instead of tracking which rows a page read, every cached response is
filed under a *generation*: a value the database changes on every committed write
(`prdigest.store.generation` says how each database gives one), re-read at most once per
``interval`` seconds. When it changes, the whole cache is dropped. A database that gives no
generation gets no caching.

The generation is read *before* the page's own queries, so a page never carries data older
than its key says (a write in between only makes the entry newer than its key: a later miss).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response

from prdigest.store.generation import generation_reader
from prdigest.store.store import Store


class DataGeneration:
    """The database's current write generation, re-read at most once per `interval` seconds."""

    def __init__(self, store: Store, interval: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._reader = generation_reader(store)
        self._interval = interval
        self._clock = clock
        self._value: Hashable | None = None
        self._read_at = 0.0
        self._lock = threading.Lock()

    @property
    def supported(self) -> bool:
        return self._reader is not None

    def current(self) -> Hashable | None:
        """The generation, or None when this database gives none (then nothing is cached)."""
        if self._reader is None:
            return None
        with self._lock:
            now = self._clock()
            if self._value is None or now - self._read_at >= self._interval:
                self._value = self._reader.read()
                self._read_at = now
            return self._value

    def close(self) -> None:
        with self._lock:
            if self._reader is not None:
                self._reader.close()


@dataclass(frozen=True)
class CachedResponse:
    body: bytes
    media_type: str


class ResponseCache:
    """LRU map of request key → response body, bounded in entries and in bytes.

    Entries belong to one generation; storing or looking up under another drops them all.
    """

    def __init__(self, max_entries: int, max_bytes: int) -> None:
        self._max_entries = max_entries
        self._max_bytes = max_bytes
        self._items: OrderedDict[Hashable, CachedResponse] = OrderedDict()
        self._bytes = 0
        self._generation: Hashable | None = None
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        return self._max_entries > 0 and self._max_bytes > 0

    def __len__(self) -> int:
        return len(self._items)

    @property
    def size_bytes(self) -> int:
        return self._bytes

    def get(self, generation: Hashable, key: Hashable) -> CachedResponse | None:
        with self._lock:
            if generation != self._generation:
                self._reset(generation)
                return None
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, generation: Hashable, key: Hashable, response: CachedResponse) -> None:
        size = len(response.body)
        if not self.enabled or size > self._max_bytes:
            return
        with self._lock:
            if generation != self._generation:
                self._reset(generation)
            previous = self._items.pop(key, None)
            if previous is not None:
                self._bytes -= len(previous.body)
            self._items[key] = response
            self._bytes += size
            while len(self._items) > self._max_entries or self._bytes > self._max_bytes:
                _key, evicted = self._items.popitem(last=False)
                self._bytes -= len(evicted.body)

    def _reset(self, generation: Hashable) -> None:
        self._items.clear()
        self._bytes = 0
        self._generation = generation


def serve_cached(
    generation: DataGeneration, cache: ResponseCache, key: Hashable, build: Callable[[], Response]
) -> Response:
    """The cached response for `key` in the current generation, else `build()` (cached if 200).

    A hit is the stored body with the stored media type: the same bytes and headers a fresh
    build gives (Starlette derives the content type and length from those two alone).
    """
    if not cache.enabled:
        return build()
    current = generation.current()
    if current is None:
        return build()
    hit = cache.get(current, key)
    if hit is not None:
        return Response(hit.body, media_type=hit.media_type)
    response = build()
    if response.status_code == 200 and response.media_type is not None:
        cache.put(current, key, CachedResponse(bytes(response.body), response.media_type))
    return response


def request_key(request: Request, as_json: bool, *extra: Hashable) -> Hashable:
    """Everything of the request a feed or search response depends on (language is in the query)."""
    return (request.scope["path"], request.scope["query_string"], as_json, *extra)
