"""Whole-response caches for the feed and search pages, invalidated by the data's generation.

A feed or search response depends on the request (path, query string, HTML or JSON) and on
what is in the database. Instead of tracking which rows a page read, every cached response is
filed under a *generation*: a value the database changes on every committed write, re-read at
most once per ``interval`` seconds. When it changes, the whole cache is dropped.

Why not ``max(id)``/``count(*)`` of the written tables: `Store.upsert_prs` UPDATEs changed PRs
in place (same id, same count: a retitled PR would not show), and
`facts_store.save_facts_rows` deletes and re-inserts facts, labels and links, which on SQLite
reuses the same rowids when the PR was the newest one. The generation therefore comes from
the database engine itself:

- SQLite: ``PRAGMA data_version`` on one dedicated connection (it changes whenever another
  connection, of any process, commits) plus ``total_changes()`` (the writes of that same
  connection, which is every connection for an in-memory database).
- PostgreSQL: ``pg_current_snapshot()``: its xmax moves when any writing transaction starts,
  its in-progress list changes when one ends. It is cluster-wide, so writes to other
  databases also invalidate (harmless, just a miss). The LSN of the WAL is not used: a commit
  record can be written before the commit becomes visible, which could file a stale page under
  the final LSN.
- Other databases: no generation, no caching.

The generation is read *before* the page's own queries, so a page never carries data older
than its key says (a write in between only makes the entry newer than its key: a later miss).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from sqlalchemy import Connection
from starlette.requests import Request
from starlette.responses import Response

from prdigest.store.store import Store

_GENERATION_SQL = {
    "sqlite": "SELECT (SELECT data_version FROM pragma_data_version()), total_changes()",
    "postgresql": "SELECT CAST(pg_current_snapshot() AS TEXT)",
}


class DataGeneration:
    """The database's current write generation, re-read at most once per `interval` seconds."""

    def __init__(self, store: Store, interval: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._store = store
        self._interval = interval
        self._clock = clock
        self._sql = _GENERATION_SQL.get(store.engine.dialect.name)
        self._connection: Connection | None = None
        self._value: Hashable | None = None
        self._read_at = 0.0
        self._lock = threading.Lock()

    @property
    def supported(self) -> bool:
        return self._sql is not None

    def current(self) -> Hashable | None:
        """The generation, or None when this database gives none (then nothing is cached)."""
        if self._sql is None:
            return None
        with self._lock:
            now = self._clock()
            if self._value is None or now - self._read_at >= self._interval:
                self._value = self._read(self._sql)
                self._read_at = now
            return self._value

    def _read(self, sql: str) -> Hashable:
        if self._connection is None:
            # Kept for the app's life: data_version only compares within one connection.
            self._connection = self._store.engine.connect()
        try:
            row = self._connection.exec_driver_sql(sql).one()
        except Exception:
            self._discard_connection()
            raise
        if self._store.engine.dialect.name != "sqlite":
            # End the read-only transaction at once: an open one would pin a PostgreSQL snapshot.
            # (pysqlite opens none for a SELECT, and an in-memory database's one connection is
            # shared with the writers: a rollback there could undo someone else's work.)
            self._connection.rollback()
        return tuple(row)

    def _discard_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):  # already broken: nothing else to do
                connection.close()

    def close(self) -> None:
        with self._lock:
            self._discard_connection()


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
