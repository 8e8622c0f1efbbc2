"""The search index: queries, staleness, orphans, and migration 0002 up and down."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import inspect, text

from prdigest.models.pullrequest import Comment, PullRequest
from prdigest.store import Store, migrate
from prdigest.store.search_store import fts5_query, index_pr, reindex, search, segment, unsegment

from .conftest import REPO


def test_reindex_touches_only_stale_rows(store: Store) -> None:
    assert reindex(store).indexed == 0
    store.upsert_prs([PullRequest(repository=REPO, number=2, title="Revert it", body="now about zeppelins")])
    stats = reindex(store)
    assert (stats.indexed, stats.current) == (1, 4)
    assert [hit.number for hit in search(store, "zeppelins")] == [2]


def test_index_pr_refreshes_one_row(store: Store) -> None:
    store.upsert_prs(
        [PullRequest(repository=REPO, number=6, title="New", comments=[Comment(author="a", body="quasar note")])]
    )
    assert search(store, "quasar") == []
    index_pr(store, REPO, 6)
    assert [hit.number for hit in search(store, "quasar")] == [6]


def test_deleted_repository_leaves_no_hits(store: Store) -> None:
    store.delete_repository(REPO)
    assert search(store, "cuda") == []
    assert reindex(store).removed == 5


def test_segmentation_round_trips_for_display() -> None:
    assert segment("修复abc") == " 修  复 abc"
    assert unsegment(segment("修复 numpy 上限")) == "修复 numpy 上限"


def test_fts_query_quotes_every_term() -> None:
    assert fts5_query('NEAR(a b) "x') == '"NEAR(a" "b)" """x"'
    assert fts5_query("  ") is None
    assert fts5_query("*** ---") is None


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=60))
def test_any_query_is_answered(store: Store, query: str) -> None:
    hits = search(store, query, limit=3)
    assert len(hits) <= 3


def test_migration_0002_downgrades_and_upgrades(tmp_path: Path) -> None:
    opened = Store.open(f"sqlite:///{tmp_path / 'm.db'}")
    try:
        assert inspect(opened.engine).has_table("pr_search")
        migrate.downgrade(opened.engine, "0001")
        assert not inspect(opened.engine).has_table("pr_search")
        with opened.engine.connect() as connection:
            assert migrate.current_revision(connection) == "0001"
            indexes = connection.execute(text("SELECT name FROM sqlite_master WHERE type = 'index'")).all()
        assert "ix_pull_requests_feed_order" not in {row[0] for row in indexes}
        migrate.upgrade(opened.engine)
        assert inspect(opened.engine).has_table("pr_search")
    finally:
        opened.close()


def test_feed_query_uses_the_feed_index(store: Store) -> None:
    with store.engine.connect() as connection:
        rows = connection.execute(
            text(
                "EXPLAIN QUERY PLAN SELECT number FROM pull_requests WHERE repository_id = 1 "
                "ORDER BY coalesce(pull_requests.merged_at, pull_requests.created_at) DESC, pull_requests.number DESC "
                "LIMIT 30"
            )
        ).all()
    plan = "\n".join(str(row) for row in rows)
    assert "ix_pull_requests_feed_order" in plan
    assert "TEMP B-TREE" not in plan


def test_the_real_feed_query_pages_on_the_feed_index(store: Store) -> None:
    from prdigest.web.queries import _feed_sql
    from prdigest.web.schemas import FeedFilters

    for filters in (FeedFilters(), FeedFilters(risk="revert", verdict="skip")):
        params: dict[str, object] = {"lang": "zh", "limit": 31, "offset": 300, "repository": REPO}
        sql = _feed_sql("sqlite", filters, params)
        with store.engine.connect() as connection:
            rows = connection.execute(text("EXPLAIN QUERY PLAN " + sql), params).all()
        steps = [str(row[3]) for row in rows]
        assert "SEARCH p USING INDEX ix_pull_requests_feed_order (repository_id=?)" in steps, steps
        assert "SCAN p" not in steps, steps  # no walk over every PR row
        assert "SEARCH p USING INTEGER PRIMARY KEY (rowid=?)" in steps, steps  # details for the page only
