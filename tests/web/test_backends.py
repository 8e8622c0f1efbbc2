"""Search and the pages on both backends: SQLite and PostgreSQL (set PRDIGEST_TEST_PG_URL).

The same assertions run on each: FTS5 and tsvector must agree on what a query finds, in
which order, and with CJK words matched as phrases.
"""

from __future__ import annotations

from collections.abc import Iterator
from xml.etree import ElementTree

import pytest
from fastapi.testclient import TestClient

from prdigest.models.pullrequest import PullRequest
from prdigest.store import Store
from prdigest.store.search_store import MARK_END, MARK_START, reindex, search
from prdigest.web import create_app

from .conftest import REPO, XSS_TITLE, fill_store


@pytest.fixture
def any_store(db_url: str) -> Iterator[Store]:
    opened = Store.open(db_url)
    fill_store(opened)
    yield opened
    opened.close()


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


def test_reindex_picks_up_changes_and_deletions(any_store: Store) -> None:
    assert reindex(any_store).indexed == 0
    any_store.upsert_prs([PullRequest(repository=REPO, number=2, title="Revert it", body="now about 齐柏林飞艇")])
    assert reindex(any_store).indexed == 1
    assert numbers(any_store, "飞艇") == [2]
    assert numbers(any_store, "ROCm") == [3]
    any_store.delete_repository(REPO)
    reindex(any_store)
    assert numbers(any_store, "CUDA") == []


def test_pages_work_on_each_backend(any_store: Store) -> None:
    with TestClient(create_app(any_store)) as client:
        feed = client.get(f"/repos/{REPO}.json", params={"risk": "missing-regression-test"}).json()
        assert [item["number"] for item in feed["items"]] == [3, 1]
        assert feed["items"][0]["reason"] == "reason 3"
        assert {f["value"]: f["count"] for f in feed["risk_tags"]}["missing-regression-test"] == 2
        assert [i["number"] for i in client.get("/search.json", params={"q": "风险"}).json()["items"]] == [5]
        html = client.get("/search", params={"q": "风险"}).text
        assert "<mark>" in html
        report = client.get(f"/repos/{REPO}/pulls/4")
        assert report.status_code == 200
        assert "<script>window.__xss" not in report.text
        atom = client.get(f"/repos/{REPO}/feed.atom")
        assert atom.status_code == 200
        assert "<script>" not in atom.text
        titles = [e.text for e in ElementTree.fromstring(atom.content).iter("{http://www.w3.org/2005/Atom}title")]
        assert XSS_TITLE in titles
