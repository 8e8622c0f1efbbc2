"""The pages on both backends: SQLite and PostgreSQL (set PRDIGEST_TEST_PG_URL).

The search itself is tested on both in tests/store/test_search_store.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from xml.etree import ElementTree

import pytest
from fastapi.testclient import TestClient
from tests.helpers.sample_store import REPO, XSS_TITLE, fill_store

from prdigest.store import Store
from prdigest.web import create_app


@pytest.fixture
def any_store(db_url: str) -> Iterator[Store]:
    opened = Store.open(db_url)
    fill_store(opened)
    yield opened
    opened.close()


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
