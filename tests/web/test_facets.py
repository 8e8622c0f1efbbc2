"""The filter-form counts: computed at start, refreshed in the background, never stale forever."""

from __future__ import annotations

import time

import pytest
from tests.helpers.sample_store import REPO, _facts

from prdigest.errors import NotFound
from prdigest.models.facts import VerdictLevel
from prdigest.models.pullrequest import PullRequest
from prdigest.store import Store
from prdigest.store.facts_store import save_facts
from prdigest.web.facets import FacetRefresher


def counts(refresher: FacetRefresher, repository: str = REPO) -> dict[str, int]:
    risks, modules = refresher.facets(repository)
    return {f"risk:{f.value}": f.count for f in risks} | {f"module:{f.value}": f.count for f in modules}


def add_analyzed_pr(store: Store, number: int, risk: str) -> None:
    store.upsert_prs([PullRequest(repository=REPO, number=number, title=f"PR {number}")])
    pr_id = store.pr_id(REPO, number)
    save_facts(store, pr_id, _facts(number, VerdictLevel.SKIP, [risk], ["build"]), cache_key="test")


def test_counts_are_computed_at_start_and_on_refresh(store: Store) -> None:
    refresher = FacetRefresher(store, interval_seconds=0)
    refresher.start()
    assert counts(refresher)["risk:missing-regression-test"] == 2
    assert counts(refresher)["module:build"] == 3
    add_analyzed_pr(store, 6, "missing-regression-test")
    assert counts(refresher)["risk:missing-regression-test"] == 2  # the snapshot, not a query
    refresher.refresh()
    assert counts(refresher)["risk:missing-regression-test"] == 3
    assert [row.pull_requests for row in refresher.repositories()] == [6]


def test_background_thread_refreshes(store: Store) -> None:
    refresher = FacetRefresher(store, interval_seconds=0.05)
    refresher.start()
    try:
        add_analyzed_pr(store, 6, "brand-new-risk")
        deadline = time.monotonic() + 10
        while "risk:brand-new-risk" not in counts(refresher) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert counts(refresher)["risk:brand-new-risk"] == 1
    finally:
        refresher.stop()


def test_repository_added_after_start_is_counted_on_demand(store: Store) -> None:
    refresher = FacetRefresher(store, interval_seconds=0)
    refresher.start()
    store.upsert_prs([PullRequest(repository="late/comer", number=1, title="x")])
    assert refresher.facets("late/comer") == ([], [])
    with pytest.raises(NotFound):
        refresher.facets("no/such-repo")
