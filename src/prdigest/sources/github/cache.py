"""The conditional-request cache the GitHub client is handed: an interface, not the store.

The client asks for the response last stored under a URL and stores new ones with their
``ETag`` / ``Last-Modified``; whoever builds the client (the CLI) decides where they live
(`prdigest.store.http_cache.HttpCache` keeps them in the database).
"""

from __future__ import annotations

from typing import Protocol


class CachedEntry(Protocol):
    """A stored response: the body and the validators that vouch for it."""

    @property
    def etag(self) -> str | None: ...

    @property
    def last_modified(self) -> str | None: ...

    @property
    def body(self) -> str: ...


class ResponseCache(Protocol):
    """Stored responses by request (method + URL; URLs never carry the token)."""

    def get(self, url: str, method: str = "GET") -> CachedEntry | None: ...

    def put(self, url: str, body: str, *, etag: str | None, last_modified: str | None, method: str = "GET") -> None: ...
