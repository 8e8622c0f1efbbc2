"""The JSON twins, headers, errors and filters, through FastAPI's TestClient."""

from __future__ import annotations

from html.parser import HTMLParser
from xml.etree import ElementTree

import pytest
from fastapi.testclient import TestClient
from tests.helpers.sample_store import REPO, XSS_TITLE

from prdigest.web.security import CONTENT_SECURITY_POLICY

FEED = f"/repos/{REPO}"


def numbers(payload: dict[str, object]) -> list[int]:
    items = payload["items"]
    assert isinstance(items, list)
    return [int(item["number"]) for item in items]


def test_repositories_lists_counts(client: TestClient) -> None:
    body = client.get("/repos.json").json()
    assert body["repositories"] == [
        {
            "repository": REPO,
            "pull_requests": 5,
            "analyzed": 5,
            "latest": "2026-03-05T12:00:00Z",
            "url": f"{FEED}?lang=zh",
        }
    ]


def test_home_redirects_to_repositories(client: TestClient) -> None:
    response = client.get("/", follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == "/repos"


def test_feed_is_newest_first_with_verdicts_and_labels(client: TestClient) -> None:
    body = client.get(f"{FEED}.json").json()
    assert numbers(body) == [5, 4, 3, 2, 1]
    third = body["items"][2]
    assert third["verdict"] == "read-in-depth"
    assert third["risk_tags"] == ["dependency-upgrade", "missing-regression-test"]
    assert third["modules"] == ["build", "rocm"]
    assert third["reason"] == "reason 3"
    assert {f["value"]: f["count"] for f in body["risk_tags"]}["missing-regression-test"] == 2


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("verdict=read-in-depth", [3, 1]),
        ("risk=missing-regression-test", [3, 1]),
        ("module=rocm", [3]),
        ("author=alice", [3, 1]),
        ("since=2026-03-02&until=2026-03-03", [3, 2]),
        ("verdict=quick-read&module=deps", [5]),
        ("verdict=&risk=&module=&author=&since=&until=", [5, 4, 3, 2, 1]),
        ("risk=no-such-tag", []),
    ],
)
def test_feed_filters(client: TestClient, query: str, expected: list[int]) -> None:
    assert numbers(client.get(f"{FEED}.json?{query}").json()) == expected


def test_feed_pages(store: object) -> None:
    from prdigest.config import Settings
    from prdigest.web import WebOptions, create_app

    with TestClient(create_app(store, Settings(), WebOptions(page_size=2))) as small:  # type: ignore[arg-type]
        first = small.get(f"{FEED}.json").json()
        second = small.get(f"{FEED}.json?page=2").json()
        last = small.get(f"{FEED}.json?page=3").json()
    assert (numbers(first), first["has_next"]) == ([5, 4], True)
    assert (numbers(second), second["has_next"]) == ([3, 2], True)
    assert (numbers(last), last["has_next"]) == ([1], False)


def test_accept_header_gives_the_json_twin(client: TestClient) -> None:
    html = client.get(FEED)
    as_json = client.get(FEED, headers={"Accept": "application/json"})
    assert html.headers["content-type"].startswith("text/html")
    assert as_json.headers["content-type"] == "application/json"
    assert as_json.json() == client.get(f"{FEED}.json").json()


def test_report_json_carries_facts_markdown_and_lineage(client: TestClient) -> None:
    body = client.get(f"{FEED}/pulls/1.json?lang=en&length=brief").json()
    assert (body["number"], body["lang"], body["length"], body["verdict"]) == (1, "en", "brief", "read-in-depth")
    assert body["facts"]["risks"]["tags"][0]["tag"] == "missing-regression-test"
    assert body["markdown"]
    relations = {(link["number"], link["relation"]) for link in body["lineage"]}
    assert relations == {(2, "reverted-by"), (3, "restored-by")}


def test_lineage_page_follows_two_hops(client: TestClient) -> None:
    body = client.get(f"{FEED}/pulls/2/lineage.json").json()
    direct = {(link["number"], link["relation"], link["hop"]) for link in body["links"]}
    assert (1, "reverts", 1) in direct
    # #3 restores #1: a second hop, told from #1's side.
    assert (3, "restored-by", 2) in direct
    assert [link["via"] for link in body["links"] if link["number"] == 3] == [1]


def test_search_finds_chinese_words_and_ignores_operators(client: TestClient) -> None:
    assert numbers(client.get("/search.json", params={"q": "风险"}).json()) == [5]
    assert numbers(client.get("/search.json", params={"q": "numpy 上限"}).json()) == [5]
    assert sorted(numbers(client.get("/search.json", params={"q": "ROCm"}).json())) == [2, 3]
    for hostile in ['"', "NEAR(", "a AND OR", "*", "title:x", "()", "\x00"]:
        response = client.get("/search.json", params={"q": hostile})
        assert response.status_code == 200, hostile


def test_search_snippets_are_plain_text_in_json_and_marked_in_html(client: TestClient) -> None:
    item = client.get("/search.json", params={"q": "ROCm"}).json()["items"][0]
    assert "\x02" not in item["snippet"]
    assert "ROCm" in item["snippet"]
    html = client.get("/search", params={"q": "ROCm"}).text
    assert "<mark>ROCm</mark>" in html


def test_search_searches_comments_and_can_be_limited_to_a_repository(client: TestClient) -> None:
    assert numbers(client.get("/search.json", params={"q": "click"}).json()) == [4]
    assert numbers(client.get("/search.json", params={"q": "ROCm", "repo": "other/repo"}).json()) == []


def test_unknown_pr_is_a_json_404(client: TestClient) -> None:
    response = client.get(f"{FEED}/pulls/999.json")
    assert response.status_code == 404
    assert response.json() == {"error": "not_found", "detail": f"no pull request {REPO}#999 in the database"}
    assert client.get(f"{FEED}/pulls/999").status_code == 404
    assert client.get("/repos/nobody/nothing.json").json()["error"] == "not_found"


def test_bad_parameters_are_422_with_an_error_body(client: TestClient) -> None:
    for url in (f"{FEED}.json?since=2026-13-45", f"{FEED}.json?verdict=great", f"{FEED}/pulls/1.json?lang=fr"):
        response = client.get(url)
        assert response.status_code == 422, url
        assert response.json()["error"] == "invalid_parameter"


def test_security_headers_on_every_response(client: TestClient) -> None:
    for url in (FEED, f"{FEED}.json", "/static/style.css", f"{FEED}/pulls/999", "/search?q=x"):
        headers = client.get(url).headers
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"


def test_server_is_read_only(client: TestClient) -> None:
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        response = client.request(method, f"{FEED}.json")
        assert response.status_code == 405
        assert response.headers["allow"] == "GET, HEAD"
    assert client.head(f"{FEED}").status_code == 200


class _ActiveMarkup(HTMLParser):
    """Collects what a browser would act on: scripts, event handlers, script URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "script" and values.get("src") != "/static/app.js":
            self.found.append(f"script {values}")
        if tag in {"img", "svg", "iframe", "object", "embed"}:
            self.found.append(tag)
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"{tag} {name}")
            if name in {"href", "src", "action"} and (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"{tag} {name}={value}")


def active_markup(html: str) -> list[str]:
    parser = _ActiveMarkup()
    parser.feed(html)
    return parser.found


def test_untrusted_text_is_escaped_in_pages(client: TestClient) -> None:
    for url in (FEED, f"{FEED}/pulls/4", "/search?q=parser", f"{FEED}/pulls/4/lineage", "/search?q=click"):
        html = client.get(url).text
        assert active_markup(html) == [], url
    report = client.get(f"{FEED}/pulls/4").text
    assert "&lt;script&gt;window.__xss = 1&lt;/script&gt;" in report


def test_no_inline_script_or_style_in_pages(client: TestClient) -> None:
    for url in ("/repos", FEED, f"{FEED}/pulls/1", "/search?q=cuda", f"{FEED}/pulls/1/lineage"):
        html = client.get(url).text
        assert "<script>" not in html, url
        assert "<style" not in html, url
        assert " style=" not in html, url
        assert '<meta name="viewport"' in html


def test_atom_feed_is_valid_xml_with_escaped_titles(client: TestClient) -> None:
    response = client.get(f"{FEED}/feed.atom")
    assert response.headers["content-type"].startswith("application/atom+xml")
    root = ElementTree.fromstring(response.content)
    ns = {"a": "http://www.w3.org/2005/Atom"}
    titles = [e.text for e in root.findall("a:entry/a:title", ns)]
    assert titles[1] == XSS_TITLE
    assert len(titles) == 5
    links = [e.get("href") for e in root.findall("a:entry/a:link", ns)]
    assert links[0] == f"http://testserver{FEED}/pulls/5?lang=zh"


def test_atom_feed_comes_from_the_render_builder(client: TestClient) -> None:
    response = client.get(f"{FEED}/feed.atom", params={"lang": "en"})
    raw = response.content
    assert raw.startswith(b'<?xml version="1.0" encoding="utf-8"?>')
    assert b"<script>" not in raw
    assert b"&lt;script&gt;" in raw
    root = ElementTree.fromstring(raw)
    ns = {"a": "http://www.w3.org/2005/Atom"}
    assert root.tag == "{http://www.w3.org/2005/Atom}feed"
    for required in ("a:id", "a:title", "a:updated"):
        assert (root.findtext(required, namespaces=ns) or "").strip(), required
    assert root.findtext("a:updated", namespaces=ns) == "2026-03-05T12:00:00Z"
    self_links = [e.get("href") for e in root.findall("a:link", ns) if e.get("rel") == "self"]
    assert self_links == [f"http://testserver{FEED}/feed.atom?lang=en"]
    entries = root.findall("a:entry", ns)
    assert [e.findtext("a:updated", namespaces=ns) for e in entries][:2] == [
        "2026-03-05T12:00:00Z",
        "2026-03-04T12:00:00Z",
    ]
    first = entries[0]
    assert first.find("a:category", ns) is not None
    assert first.find("a:category", ns).get("term") == "quick-read"  # type: ignore[union-attr]
    assert first.findtext("a:summary", namespaces=ns) == "Worth a quick read. reason 5"
    assert len({e.findtext("a:id", namespaces=ns) for e in entries}) == 5


def test_report_page_shows_the_title_once(client: TestClient) -> None:
    html = client.get(f"{FEED}/pulls/2", params={"lang": "en"}).text
    article = html[html.index('<article class="report"') : html.index("</article>")]
    meta = article[: article.index("</ul>")]  # the report's header lines
    assert "<h1" not in article
    assert "Revert the CUDA detection helper" not in meta
    assert html.count('<h1 class="report-title">Revert the CUDA detection helper</h1>') == 1
    markdown = client.get(f"{FEED}/pulls/2.json", params={"lang": "en"}).json()["markdown"]
    assert markdown.startswith("# ")  # the JSON twin keeps the report as written


def test_report_switches_are_links(client: TestClient) -> None:
    html = client.get(f"{FEED}/pulls/1?lang=zh&length=full").text
    assert f'href="{FEED}/pulls/1?lang=en&amp;length=full"' in html
    assert f'href="{FEED}/pulls/1?lang=zh&amp;length=brief"' in html


def test_openapi_documents_every_json_twin(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert set(paths) == {
        "/repos.json",
        "/queue.json",
        "/search.json",
        "/repos/{owner}/{name}.json",
        "/repos/{owner}/{name}/pulls/{number}.json",
        "/repos/{owner}/{name}/pulls/{number}/lineage.json",
        "/repos/{owner}/{name}/deps.json",
        "/repos/{owner}/{name}/deps/{package}.json",
        "/watch.json",
        "/watch/{name}.json",
    }
