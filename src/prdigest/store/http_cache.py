"""Conditional-request cache of the GitHub source: ETag / Last-Modified and the body they vouch for.

Keys are the sha256 of method + URL; URLs never carry the token (it travels in a header).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from sqlalchemy import delete, select

from prdigest.store.schema import http_cache
from prdigest.store.store import Store
from prdigest.store.upsert import insert_rows


@dataclass(frozen=True)
class CachedResponse:
    url: str
    etag: str | None
    last_modified: str | None
    body: str


def cache_key(method: str, url: str) -> str:
    return hashlib.sha256(f"{method.upper()} {url}".encode()).hexdigest()


class HttpCache:
    """Reads and writes rows of ``http_cache`` through a `Store`'s engine."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._engine = store._engine

    def get(self, url: str, method: str = "GET") -> CachedResponse | None:
        with self._engine.connect() as connection:
            row = connection.execute(
                select(http_cache.c.url, http_cache.c.etag, http_cache.c.last_modified, http_cache.c.body).where(
                    http_cache.c.key == cache_key(method, url)
                )
            ).first()
        if row is None:
            return None
        return CachedResponse(str(row.url), row.etag, row.last_modified, str(row.body))

    def put(self, url: str, body: str, *, etag: str | None, last_modified: str | None, method: str = "GET") -> None:
        key = cache_key(method, url)
        values = {"url": url, "etag": etag, "last_modified": last_modified, "body": body}
        with self._store._write() as connection:
            insert_rows(connection, http_cache, [{"key": key, **values}], keys=["key"], update=list(values))

    def delete(self, url: str, method: str = "GET") -> None:
        with self._store._write() as connection:
            connection.execute(delete(http_cache).where(http_cache.c.key == cache_key(method, url)))
