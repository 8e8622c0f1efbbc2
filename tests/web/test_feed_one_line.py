"""The web feed shows each entry's one-line summary, as the Markdown and JSON feeds do, escaped,
on a real git history synced, analyzed and narrated (offline) into SQLite."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.config import Settings
from prdigest.pipeline.analyze_selected import AnalyzeRequest, analyze_selected
from prdigest.pipeline.report import feed_for
from prdigest.pipeline.sync import sync_source
from prdigest.sources.git import GitSource, GitSyncOptions
from prdigest.store import Store
from prdigest.web import create_app
from prdigest.words import CATALOG

REPO = "example-org/pool"
BODY = "This PR makes the pool reject <script>alert(1)</script> hosts & ports before it connects them."


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# pool\n", "src/pool/core.py": "def connect(host):\n    return host\n"}, "Initial")
    repo.squash_pr(
        1,
        "Check hosts",
        {"src/pool/core.py": "def connect(host):\n    if not host:\n        raise ValueError(host)\n    return host\n"},
        body=BODY,
    )
    repo.set_origin(f"https://github.com/{REPO}.git")
    store = Store.open(f"sqlite:///{tmp_path / 'pool.db'}")
    sync_source(store, GitSource(repo.path, GitSyncOptions(repository=REPO)))
    assert analyze_selected(store, AnalyzeRequest()).failed == []
    feed_for(store, REPO, CATALOG.lang("en"), None)  # narrates and stores each entry's prose
    with TestClient(create_app(store, Settings())) as test_client:
        yield test_client
    store.close()


def test_the_feed_page_shows_the_one_line_summary_escaped(client: TestClient) -> None:
    item = client.get(f"/repos/{REPO}.json", params={"lang": "en"}).json()["items"][0]
    one_line = item["one_line"]
    assert "reject" in one_line
    assert "<script>" in one_line
    page = client.get(f"/repos/{REPO}", params={"lang": "en"}).text
    shown = re.search(r'<p class="one-line">(.*?)</p>', page, re.S)
    assert shown is not None
    assert html.unescape(shown.group(1)) == one_line
    assert "<script>" not in page
    assert "&lt;script&gt;" in shown.group(1)
