"""The search index: queries, staleness, orphans, and migration 0002 up and down.

The `any_store` tests run on both backends: FTS5 and tsvector must agree on what a query
finds, in which order, and with CJK words matched as phrases.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import inspect, text
from tests.helpers.sample_store import REPO

from prdigest.models.pullrequest import Comment, PullRequest
from prdigest.store import Store, migrate
from prdigest.store.search_store import MARK_END, MARK_START, fts5_query, index_pr, reindex, search, segment, unsegment
from prdigest.store.testing import engine_of


def test_writes_index_at_once_and_reindex_finds_nothing_stale(store: Store) -> None:
    assert reindex(store).indexed == 0
    store.upsert_prs([PullRequest(repository=REPO, number=2, title="Revert it", body="now about zeppelins")])
    assert [hit.number for hit in search(store, "zeppelins")] == [2]  # indexed with the write
    stats = reindex(store)
    assert (stats.indexed, stats.current) == (0, 5)


def test_index_pr_keeps_a_current_row(store: Store) -> None:
    store.upsert_prs(
        [PullRequest(repository=REPO, number=6, title="New", comments=[Comment(author="a", body="quasar note")])]
    )
    assert [hit.number for hit in search(store, "quasar")] == [6]
    index_pr(store, REPO, 6)  # already current: nothing changes
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
        assert inspect(engine_of(opened)).has_table("pr_search")
        migrate.downgrade(engine_of(opened), "0001")
        assert not inspect(engine_of(opened)).has_table("pr_search")
        with engine_of(opened).connect() as connection:
            assert migrate.current_revision(connection) == "0001"
            indexes = connection.execute(text("SELECT name FROM sqlite_master WHERE type = 'index'")).all()
        assert "ix_pull_requests_feed_order" not in {row[0] for row in indexes}
        migrate.upgrade(engine_of(opened))
        assert inspect(engine_of(opened)).has_table("pr_search")
    finally:
        opened.close()


def test_feed_query_uses_the_feed_index(store: Store) -> None:
    with engine_of(store).connect() as connection:
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
    from prdigest.store.feed_query import FeedFilter, _feed_sql

    for filters in (FeedFilter(), FeedFilter(risk="revert", verdict="skip")):
        params: dict[str, object] = {"lang": "zh", "limit": 31, "offset": 300, "repository": REPO}
        sql = _feed_sql("sqlite", filters, params)
        with engine_of(store).connect() as connection:
            rows = connection.execute(text("EXPLAIN QUERY PLAN " + sql), params).all()
        steps = [str(row[3]) for row in rows]
        assert "SEARCH p USING INDEX ix_pull_requests_feed_order (repository_id=?)" in steps, steps
        assert "SCAN p" not in steps, steps  # no walk over every PR row
        assert "SEARCH p USING INTEGER PRIMARY KEY (rowid=?)" in steps, steps  # details for the page only


def numbers(store: Store, query: str, **kwargs: object) -> list[int]:
    return [hit.number for hit in search(store, query, **kwargs)]  # type: ignore[arg-type]


def test_search_finds_words_in_every_part(any_store: Store) -> None:
    assert numbers(any_store, "zeppelin") == []
    assert numbers(any_store, "click") == [4]  # a comment
    assert numbers(any_store, "detection guard") == [3]  # every word must match
    assert numbers(any_store, "dependency-constraint-change") == [5]  # the report's risk tag
    assert numbers(any_store, "ROCm", repository="other/repo") == []
    assert numbers(any_store, 'NEAR( "x * :') == []  # operators are plain words


def test_chinese_words_match_as_phrases(any_store: Store) -> None:
    assert numbers(any_store, "风险") == [5]  # inside 存在回归风险的改动
    assert numbers(any_store, "numpy 上限") == [5]
    assert numbers(any_store, "依赖约束") == [5]
    # 风 and 测 are both in PR 5, but not next to each other: no phrase, no hit.
    assert numbers(any_store, "风测") == []


def test_title_matches_come_first_then_newest(any_store: Store) -> None:
    # ROCm is in #3's title and only in #2's body; both are "newer" than #1.
    assert numbers(any_store, "ROCm") == [3, 2]
    assert numbers(any_store, "ROCm", limit=1) == [3]
    assert numbers(any_store, "ROCm", limit=1, offset=1) == [2]
    assert numbers(any_store, "ROCm", limit=5, offset=2) == []
    assert numbers(any_store, "CUDA") == [3, 2, 1]


def test_snippets_mark_the_match(any_store: Store) -> None:
    (hit,) = search(any_store, "风险")
    assert f"{MARK_START}风险{MARK_END}" in hit.snippet or f"{MARK_START}风{MARK_END}" in hit.snippet
    assert hit.title == "修复依赖约束：放宽 numpy 上限"


def test_changes_are_indexed_with_the_write_and_deletions_by_reindex(any_store: Store) -> None:
    assert reindex(any_store).indexed == 0
    any_store.upsert_prs([PullRequest(repository=REPO, number=2, title="Revert it", body="now about 齐柏林飞艇")])
    assert numbers(any_store, "飞艇") == [2]  # no reindex needed
    assert reindex(any_store).indexed == 0
    assert numbers(any_store, "ROCm") == [3]
    any_store.delete_repository(REPO)
    reindex(any_store)
    assert numbers(any_store, "CUDA") == []


def test_segmentation_spaces_each_cjk_character_of_a_run() -> None:
    import re

    from prdigest.store.search_text import CJK

    one_at_a_time = re.compile(f"([{CJK}])")
    for value in ["修复abc", "中文字，한국어 カタカナ\n末", "", "plain", "a中b文c", "\\1 中"]:
        assert segment(value) == one_at_a_time.sub(r" \1 ", value)
