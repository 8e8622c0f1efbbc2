"""Chips show labels in the page's language; control characters from the store never reach a page."""

from __future__ import annotations

import json
from html.parser import HTMLParser

from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from tests.helpers.sample_store import REPO, _facts

from prdigest.models.facts import VerdictLevel
from prdigest.models.pullrequest import PullRequest
from prdigest.store import Store
from prdigest.store.facts_store import save_facts
from prdigest.store.search_store import MARK_END, MARK_START, reindex
from prdigest.text import printable
from prdigest.web.chip_labels import chip_label
from prdigest.web.templating import printable_snippet, strip_marks

FEED = f"/repos/{REPO}"
NASTY_TITLE = "Clear\x1b[2J the screen\x07 now"


class ChipParser(HTMLParser):
    """Collects (href, title, data-id, text) of every chip link and the filter options."""

    def __init__(self) -> None:
        super().__init__()
        self.chips: list[tuple[str, str, str, str]] = []
        self.options: dict[str, str] = {}
        self._chip: dict[str, str] | None = None
        self._option: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "a" and "chip" in found.get("class", "").split():
            self._chip = {**found, "text": ""}
        if tag == "option" and found.get("value"):
            self._option = found["value"]
            self.options[self._option] = ""

    def handle_data(self, data: str) -> None:
        if self._chip is not None:
            self._chip["text"] += data
        if self._option is not None:
            self.options[self._option] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._chip is not None:
            c = self._chip
            self.chips.append((c["href"], c.get("title", ""), c.get("data-id", ""), c["text"]))
            self._chip = None
        if tag == "option":
            self._option = None


def parse(html: str) -> ChipParser:
    parser = ChipParser()
    parser.feed(html)
    return parser


def add_pr(store: Store, number: int, title: str, body: str, risks: list[str], modules: list[str]) -> None:
    store.upsert_prs([PullRequest(repository=REPO, number=number, title=title, body=body, author="eve")])
    pr_id = store.pr_id(REPO, number)
    save_facts(store, pr_id, _facts(number, VerdictLevel.QUICK_READ, risks, modules), cache_key="t")


def test_zh_feed_chips_show_labels_and_keep_ids(client: TestClient) -> None:
    page = parse(client.get(FEED, params={"lang": "zh"}).text)
    risk = [c for c in page.chips if "risk=missing-regression-test" in c[0]]
    assert risk, page.chips
    for href, title, data_id, text in risk:
        assert text == "缺少回归测试"
        assert title == data_id == "missing-regression-test"
        assert href.endswith("risk=missing-regression-test")
    assert page.options["missing-regression-test"].startswith("缺少回归测试 (")
    assert ("revert", "回退") in {(c[2], c[3]) for c in page.chips}
    # A tag the vocabulary does not know (yet) shows as its id.
    assert chip_label("risk", "no-such-tag", "zh") == "no-such-tag"


def test_en_feed_chips_show_english_labels(client: TestClient) -> None:
    page = parse(client.get(FEED, params={"lang": "en"}).text)
    texts = {c[2]: c[3] for c in page.chips}
    assert texts["missing-regression-test"] == "missing regression test"
    assert texts["build"] == "build"


def test_module_chips_use_the_chinese_module_name(store: Store, client: TestClient) -> None:
    add_pr(store, 7, "Tune the kernels", "", [], ["kernels"])
    zh = parse(client.get(FEED, params={"lang": "zh"}).text)
    assert ("kernels", "CUDA 内核") in {(c[2], c[3]) for c in zh.chips}
    assert any(c[0].endswith("module=kernels") for c in zh.chips)
    en = parse(client.get(FEED, params={"lang": "en"}).text)
    assert ("kernels", "kernels") in {(c[2], c[3]) for c in en.chips}
    assert chip_label("module", "no-such-module", "zh") == "no-such-module"


def test_report_chips_show_labels(client: TestClient) -> None:
    page = parse(client.get(f"{FEED}/pulls/3", params={"lang": "zh"}).text)
    assert ("missing-regression-test", "缺少回归测试") in {(c[2], c[3]) for c in page.chips}


def test_control_characters_in_titles_become_replacement_characters(store: Store, client: TestClient) -> None:
    add_pr(store, 8, NASTY_TITLE, "zeppelin\x1b]0;owned\x07 airship", [], ["docs"])
    reindex(store)
    expected = "Clear\ufffd[2J the screen\ufffd now"
    for lang in ("zh", "en"):
        html = client.get(FEED, params={"lang": lang}).text
        assert expected in html
        assert "\x1b" not in html
        assert "\x07" not in html
    raw = client.get(f"{FEED}.json").text
    assert "\\u001b" not in raw
    assert "\\u0007" not in raw
    assert "\x1b" not in raw
    items = {item["number"]: item for item in json.loads(raw)["items"]}
    assert items[8]["title"] == expected
    atom = client.get(f"{FEED}/feed.atom").text
    assert "\x1b" not in atom
    assert "\x07" not in atom

    found = client.get("/search.json", params={"q": "zeppelin"}).json()["items"]
    assert [item["number"] for item in found] == [8]
    assert found[0]["title"] == expected
    assert "\x1b" not in found[0]["snippet"]
    assert "\x07" not in found[0]["snippet"]
    html = client.get("/search", params={"q": "zeppelin"}).text
    assert expected in html
    assert "\x1b" not in html
    assert "\x07" not in html
    assert "<mark>zeppelin</mark>" in html


def test_printable_snippet_keeps_balanced_marks() -> None:
    snippet = f"a\x1b{MARK_START}b{MARK_START}c{MARK_END}d{MARK_END}e{MARK_START}f\x07"
    assert printable_snippet(snippet) == f"a\ufffd{MARK_START}bc{MARK_END}de{MARK_START}f\ufffd{MARK_END}"


@given(st.text(alphabet=st.sampled_from(["a", "中", "\x1b", "\x07", "\t", "\n", "\x00", MARK_START, MARK_END])))
def test_printable_snippet_property(snippet: str) -> None:
    shown = printable_snippet(snippet)
    inside = False
    for char in shown:
        if char in (MARK_START, MARK_END):
            assert (char == MARK_START) != inside  # strictly alternating, starting with an opening
            inside = not inside
        else:
            assert printable(char) == char
    assert not inside
    assert strip_marks(shown) == printable(strip_marks(snippet))
