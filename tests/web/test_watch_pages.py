"""``/watch``: the list and the form that creates a watch (same origin and a CSRF token only),
``/watch/NAME`` with its JSON twin and Atom feed, on a real analyzed git history."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.helpers.watch_history import HOSTILE_TITLE, REPO, watch_store

from prdigest.store import Store
from prdigest.store.watch_store import get_watch, list_watches, mark_read

HERE = "http://testserver"


@pytest.fixture(scope="module")
def analyzed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("watch-web")
    store = Store.open(f"sqlite:///{root / 'analyzed.db'}")
    try:
        watch_store(root / "repo", store)
    finally:
        store.close()
    return root / "analyzed.db"


@pytest.fixture
def store(analyzed: Path, tmp_path: Path) -> Iterator[Store]:
    """The history (not the shared sample): conftest's ``client`` serves this store."""
    shutil.copyfile(analyzed, tmp_path / "web.db")
    opened = Store.open(f"sqlite:///{tmp_path / 'web.db'}")
    yield opened
    opened.close()


def _token(client: TestClient) -> str:
    page = client.get("/watch?lang=en")
    assert page.status_code == 200
    assert "prdigest_csrf=" in page.headers["set-cookie"]
    assert "samesite=strict" in page.headers["set-cookie"].lower()
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found is not None
    return found.group(1)


def _form(token: str, **fields: str) -> dict[str, str]:
    return {"csrf": token, "lang": "en", "name": "sched", "repository": REPO, **fields}


def test_the_form_creates_a_watch_and_shows_its_digest(client: TestClient, store: Store) -> None:
    token = _token(client)
    done = client.post(
        "/watch",
        data=_form(token, paths="src/sched/**\ndocs/**", people="alice, dave", min_level="skip"),
        headers={"Origin": HERE},
        follow_redirects=False,
    )
    assert done.status_code == 303, done.text
    assert done.headers["location"] == "/watch/sched?lang=en"
    watch = get_watch(store, "sched")
    assert (watch.paths, watch.people, watch.lang) == (("src/sched/**", "docs/**"), ("alice", "dave"), "en")

    page = client.get("/watch/sched?lang=en")
    assert page.status_code == 200
    assert page.text.index("Run tasks in one comprehension") < page.text.index("Add the scheduler")
    assert "touches src/sched/core.py (watched path src/sched/**); authored by alice" in page.text
    assert f'href="/repos/{REPO}/pulls/4?lang=en&amp;length=brief"' in page.text
    # The hostile title is text, never markup.
    assert "<script>alert" not in page.text
    assert "Make &lt;script&gt;alert(1)&lt;/script&gt; &amp; start faster" in page.text

    twin = client.get("/watch/sched.json?lang=en").json()
    assert [item["number"] for item in twin["items"]] == [5, 4, 1, 3]  # quick-read items, newest first, then skip
    assert twin["items"][0]["full_report_url"] == f"{HERE}/repos/{REPO}/pulls/5?lang=en&length=full"
    assert client.get("/watch/sched", headers={"Accept": "application/json"}).json()["watch"] == "sched"
    listed = client.get("/watch.json").json()["watches"]
    assert [(w["name"], w["url"]) for w in listed] == [("sched", "/watch/sched?lang=en")]


def test_the_atom_feed_of_a_watch(client: TestClient, store: Store) -> None:
    token = _token(client)
    client.post("/watch", data=_form(token, name="app", symbols="start"), headers={"Origin": HERE})
    feed = client.get("/watch/app/feed.atom")
    assert feed.status_code == 200
    assert feed.headers["content-type"].startswith("application/atom+xml")
    ns = {"a": "http://www.w3.org/2005/Atom"}
    root = ET.fromstring(feed.content)
    assert root.findtext("a:title", namespaces=ns) == f"Watch app on {REPO}"
    (entry,) = root.findall("a:entry", ns)
    assert entry.findtext("a:title", namespaces=ns) == HOSTILE_TITLE
    link = entry.find("a:link", ns)
    assert link is not None
    assert link.get("href") == f"{HERE}/repos/{REPO}/pulls/5?lang=en&length=full"


def test_viewing_marks_nothing_read_and_since_shows_what_was(client: TestClient, store: Store) -> None:
    token = _token(client)
    client.post("/watch", data=_form(token, name="np", packages="numpy"), headers={"Origin": HERE})
    ids = [store.pr_id(REPO, 2), store.pr_id(REPO, 6)]
    assert [i["number"] for i in client.get("/watch/np.json").json()["items"]] == [6, 2]
    assert [i["number"] for i in client.get("/watch/np.json").json()["items"]] == [6, 2]
    mark_read(store, "np", ids)
    empty = client.get("/watch/np?lang=en")
    assert "Nothing new in this watch since it was last read." in empty.text
    since = client.get("/watch/np.json?since=2024-03-04").json()
    assert [i["number"] for i in since["items"]] == [6]
    assert since["moves"][0]["after"] == "numpy<3,>=1.26"


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Referer": "https://evil.example/page"},
        {},  # neither Origin nor Referer nor Sec-Fetch-Site: same-origin
        {"Sec-Fetch-Site": "cross-site"},
        {"Origin": "null", "Sec-Fetch-Site": "cross-site"},
    ],
)
def test_a_cross_site_post_is_refused(client: TestClient, store: Store, headers: dict[str, str]) -> None:
    token = _token(client)
    refused = client.post("/watch", data=_form(token, paths="docs/**"), headers=headers, follow_redirects=False)
    assert refused.status_code == 403
    assert list_watches(store) == []


def test_a_hidden_origin_is_taken_from_sec_fetch_site(client: TestClient, store: Store) -> None:
    """Under Referrer-Policy: no-referrer a browser sends ``Origin: null`` with a same-origin form."""
    token = _token(client)
    done = client.post(
        "/watch",
        data=_form(token, paths="docs/**"),
        headers={"Origin": "null", "Sec-Fetch-Site": "same-origin"},
        follow_redirects=False,
    )
    assert done.status_code == 303
    assert [w.name for w in list_watches(store)] == ["sched"]


def test_a_post_without_the_pages_token_is_refused(client: TestClient, store: Store) -> None:
    _token(client)
    refused = client.post("/watch", data=_form("forged", paths="docs/**"), headers={"Origin": HERE})
    assert refused.status_code == 403
    fresh = TestClient(client.app)  # no cookie: the token alone is not enough
    forged = fresh.post("/watch", data=_form(_token(client), paths="docs/**"), headers={"Origin": HERE})
    assert forged.status_code == 403
    assert list_watches(store) == []


def test_bad_rules_come_back_with_why_and_what_was_typed(client: TestClient, store: Store) -> None:
    token = _token(client)
    bad = client.post(
        "/watch",
        data=_form(token, paths="src/[oops", symbols="<b>x</b>"),
        headers={"Origin": HERE, "Sec-Fetch-Site": "same-origin"},
    )
    assert bad.status_code == 422
    assert "opens a [class] it never closes" in bad.text
    assert "src/[oops" in bad.text
    unknown = client.post(
        "/watch", data=_form(_token(client), repository="example-org/other", paths="x"), headers={"Origin": HERE}
    )
    assert unknown.status_code == 422
    assert "no pull requests of example-org/other in the database" in unknown.text
    assert list_watches(store) == []


def test_other_writes_stay_refused(client: TestClient) -> None:
    assert client.post("/repos").status_code == 405
    assert client.delete("/watch").status_code == 405
    assert client.get("/watch/nope.json").status_code == 404
    assert client.get("/watch/nope").status_code == 404


def test_the_form_chooses_the_digest_language(client: TestClient, store: Store) -> None:
    page = client.get("/watch?lang=en")
    assert '<select name="lang"><option value="zh">' in page.text
    token = _token(client)
    done = client.post(
        "/watch",
        data=_form(token, name="zh-docs", paths="docs/**", lang="zh"),
        headers={"Origin": HERE},
        follow_redirects=False,
    )
    assert done.headers["location"] == "/watch/zh-docs?lang=zh"
    assert get_watch(store, "zh-docs").lang == "zh"
    assert "改动了 docs/guide.md（关注的路径 docs/**）" in client.get(done.headers["location"]).text
