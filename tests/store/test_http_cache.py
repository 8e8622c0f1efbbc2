"""The GitHub client's conditional-request cache, kept in the database."""

from __future__ import annotations

from prdigest.sources.github.cache import ResponseCache
from prdigest.store import Store
from prdigest.store.http_cache import HttpCache


def test_http_cache_round_trip(db_url: str) -> None:
    with Store.open(db_url) as store:
        cache: ResponseCache = HttpCache(store)  # what the CLI hands the GitHub client
        assert cache.get("https://x/y") is None
        cache.put("https://x/y", "[1]", etag='"e1"', last_modified=None)
        cache.put("https://x/y", "[2]", etag='"e2"', last_modified="Mon")
        hit = cache.get("https://x/y")
        assert hit is not None
        assert (hit.body, hit.etag, hit.last_modified) == ("[2]", '"e2"', "Mon")
        assert cache.get("https://x/y", method="HEAD") is None
        HttpCache(store).delete("https://x/y")
        assert cache.get("https://x/y") is None
