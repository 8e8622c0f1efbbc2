"""Whole-page caches of the feed and search: same bytes as a fresh page, fresh after writes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.helpers.sample_store import REPO, _facts, fill_store

from prdigest.config import Settings
from prdigest.models.facts import VerdictLevel
from prdigest.models.pullrequest import PullRequest
from prdigest.store import Store
from prdigest.store.facts_store import save_facts
from prdigest.store.search_store import reindex
from prdigest.web import WebOptions, create_app
from prdigest.web.context import WebContext
from prdigest.web.page_cache import CachedResponse, DataGeneration, ResponseCache

FEED = f"/repos/{REPO}"
PAGES = [
    (FEED, {}),
    (FEED, {"Accept": "application/json"}),
    (f"{FEED}.json", {}),
    (f"{FEED}?risk=missing-regression-test&lang=en", {}),
    (f"{FEED}.json?verdict=read-in-depth", {}),
    ("/search?q=CUDA", {}),
    ("/search?q=风险&lang=en", {}),
    ("/search?q=ROCm", {"Accept": "application/json"}),
    ("/search.json?q=ROCm", {}),
]


@pytest.fixture
def backend_store(db_url: str) -> Iterator[Store]:
    opened = Store.open(db_url)
    fill_store(opened)
    yield opened
    opened.close()


def web_state(app: FastAPI) -> WebContext:
    state = app.state.web
    assert isinstance(state, WebContext)
    return state


def test_cached_pages_are_byte_identical_to_fresh_ones(store: Store) -> None:
    cached_app = create_app(store, Settings(), WebOptions(generation_check_seconds=60))
    fresh_app = create_app(store, Settings(), WebOptions(response_cache_entries=0))
    with TestClient(cached_app) as cached, TestClient(fresh_app) as fresh:
        for url, headers in PAGES:
            first = cached.get(url, headers=headers)
            second = cached.get(url, headers=headers)  # from the cache
            uncached = fresh.get(url, headers=headers)
            assert first.status_code == second.status_code == uncached.status_code == 200, url
            assert first.content == second.content == uncached.content, url
            assert dict(first.headers) == dict(second.headers) == dict(uncached.headers), url
        assert len(web_state(cached_app).response_cache) == len(PAGES)
        assert len(web_state(fresh_app).response_cache) == 0


def test_errors_are_not_cached(store: Store) -> None:
    app = create_app(store, Settings(), WebOptions(generation_check_seconds=60))
    with TestClient(app) as client:
        assert client.get("/repos/nobody/nothing").status_code == 404
        assert client.get(f"{FEED}?since=yesterday").status_code == 422
        assert len(web_state(app).response_cache) == 0


def test_writes_through_the_store_show_on_the_next_request(backend_store: Store) -> None:
    store = backend_store
    app = create_app(store, Settings(), WebOptions(generation_check_seconds=0))
    with TestClient(app) as client:

        def feed() -> dict[int, dict[str, object]]:
            return {item["number"]: item for item in client.get(f"{FEED}.json").json()["items"]}

        def feed_html() -> str:
            return client.get(FEED, params={"lang": "en"}).text

        assert feed()[1]["title"] == "Add the CUDA detection helper"
        assert "Add the CUDA detection helper" in feed_html()
        # A changed PR is updated in place (same id, same row count).
        store.upsert_prs([PullRequest(repository=REPO, number=1, title="Add the CUDA probe", body="retitled")])
        assert feed()[1]["title"] == "Add the CUDA probe"
        assert "Add the CUDA probe" in feed_html()
        # A new PR.
        store.upsert_prs([PullRequest(repository=REPO, number=6, title="Brand new zeppelin", body="")])
        assert feed()[6]["verdict"] is None
        # Its analysis, then a re-analysis of the newest PR with other labels.
        pr_id = store.pr_id(REPO, 6)
        save_facts(store, pr_id, _facts(6, VerdictLevel.SKIP, ["revert"], ["docs"]), cache_key="a")
        assert (feed()[6]["verdict"], feed()[6]["risk_tags"]) == ("skip", ["revert"])
        save_facts(store, pr_id, _facts(6, VerdictLevel.READ_IN_DEPTH, ["revert"], ["docs"]), cache_key="b")
        assert feed()[6]["verdict"] == "read-in-depth"
        # Search sees what the index sees: written with the record, no reindex needed.
        assert [i["number"] for i in client.get("/search.json", params={"q": "zeppelin"}).json()["items"]] == [6]
        assert reindex(store).indexed == 0


def test_the_generation_is_reread_only_after_the_interval(backend_store: Store) -> None:
    now = [100.0]
    generation = DataGeneration(backend_store, interval=1.0, clock=lambda: now[0])
    try:
        first = generation.current()
        assert first is not None
        backend_store.upsert_prs([PullRequest(repository=REPO, number=2, title="Revert, retitled", body="")])
        now[0] += 0.5
        assert generation.current() == first  # within the interval: the old value
        now[0] += 0.6
        second = generation.current()
        assert second != first
        now[0] += 5
        assert generation.current() == second  # nothing written since
    finally:
        generation.close()


def test_in_memory_sqlite_counts_its_own_writes() -> None:
    store = Store.open("sqlite://")
    generation = DataGeneration(store, interval=0)
    try:
        before = generation.current()
        store.upsert_prs([PullRequest(repository=REPO, number=1, title="one", body="")])
        assert generation.current() != before
    finally:
        generation.close()
        store.close()


def entry(size: int) -> CachedResponse:
    return CachedResponse(b"x" * size, "text/html")


def test_response_cache_is_bounded_in_entries_and_bytes() -> None:
    cache = ResponseCache(max_entries=3, max_bytes=100)
    for key in "abc":
        cache.put(1, key, entry(10))
    assert cache.get(1, "a") is not None  # now the most recent
    cache.put(1, "d", entry(10))
    assert cache.get(1, "b") is None  # the least recently used went
    assert {k for k in "acd" if cache.get(1, k) is not None} == {"a", "c", "d"}
    cache.put(1, "e", entry(95))  # 125 bytes in all: the oldest go until it fits
    assert len(cache) == 1
    assert cache.size_bytes == 95
    cache.put(1, "f", entry(101))  # bigger than the whole cache: not kept
    assert cache.get(1, "f") is None
    assert cache.size_bytes == 95
    cache.put(1, "e", entry(5))  # replacing an entry frees its bytes
    assert cache.size_bytes == 5


def test_a_new_generation_empties_the_cache() -> None:
    cache = ResponseCache(max_entries=10, max_bytes=1000)
    cache.put("g1", "a", entry(1))
    assert cache.get("g1", "a") == entry(1)
    assert cache.get("g2", "a") is None
    assert len(cache) == 0
    assert cache.size_bytes == 0
    cache.put("g1", "a", entry(1))  # a page built under an older generation is not mixed in
    assert cache.get("g2", "a") is None
