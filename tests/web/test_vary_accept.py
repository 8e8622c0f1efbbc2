"""Pages that switch to JSON on ``Accept`` say ``Vary: Accept``, cached or not, HTML or JSON."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from tests.helpers.sample_store import REPO

NEGOTIATED = [
    "/repos",
    f"/repos/{REPO}",
    f"/repos/{REPO}?lang=en",
    f"/repos/{REPO}/pulls/1",
    f"/repos/{REPO}/pulls/1?lang=en&length=brief",
    f"/repos/{REPO}/pulls/1/lineage",
    "/search?q=CUDA",
    f"/repos/{REPO}/pulls/999",  # an error page negotiates too
]
JSON = {"Accept": "application/json"}


def _varies_on_accept(vary: str | None) -> bool:
    return vary is not None and "accept" in {part.strip().lower() for part in vary.split(",")}


@pytest.mark.parametrize("url", NEGOTIATED)
def test_negotiated_pages_vary_on_accept(client: TestClient, url: str) -> None:
    for _ in range(2):  # the second answer may come from the page cache
        html, as_json = client.get(url), client.get(url, headers=JSON)
        assert html.headers["content-type"].startswith("text/html")
        assert as_json.headers["content-type"].startswith("application/json")
        for response in (html, as_json):
            assert _varies_on_accept(response.headers.get("vary")), (url, response.headers)
            assert response.headers.get("vary", "").lower().count("accept") == 1
    assert _varies_on_accept(client.head(url).headers.get("vary"))


@pytest.mark.parametrize("url", ["/repos.json", f"/repos/{REPO}.json", f"/repos/{REPO}/feed.atom", "/static/style.css"])
def test_fixed_format_urls_do_not_vary(client: TestClient, url: str) -> None:
    response = client.get(url, headers=JSON)
    assert not _varies_on_accept(response.headers.get("vary")), (url, response.headers)
