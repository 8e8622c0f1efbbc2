"""Feed model (order, window, verdict first) and Atom validity per RFC 4287."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from typing import Any

import pytest

from prdigest.narrate.extractive import narrate_extractive
from prdigest.render.atom import ATOM_NS, render_feed_atom
from prdigest.render.feed import build_feed
from prdigest.words import Lang

NS = {"a": ATOM_NS}


def _entries(seeds: Any, lang: Lang) -> list[Any]:
    out = []
    for case in ("humming", "cupy", "hostile"):
        pr, facts = getattr(seeds, f"{case}_pr")(), getattr(seeds, f"{case}_facts")()
        out.append((pr, facts, narrate_extractive(pr, facts, [], lang, "brief")))
    return out


def test_newest_first_and_verdict_first(seeds: Any) -> None:
    feed = build_feed("vllm-project/vllm", _entries(seeds, "zh"), "zh")
    assert [i.number for i in feed.items] == [44301, 43530, 7]
    assert feed.items[0].paragraph.startswith("值得速览。")
    assert feed.items[1].paragraph.startswith("值得精读。")
    assert feed.updated == datetime(2026, 6, 3, 9, 30, tzinfo=UTC)
    en = build_feed("vllm-project/vllm", _entries(seeds, "en"), "en", limit=1)
    assert [i.number for i in en.items] == [44301]
    assert en.items[0].paragraph.startswith("Worth a quick read. ")


def test_date_window(seeds: Any) -> None:
    since = datetime(2026, 5, 1, tzinfo=UTC)
    until = datetime(2026, 6, 1, tzinfo=UTC)
    feed = build_feed("vllm-project/vllm", _entries(seeds, "en"), "en", since=since, until=until)
    assert [i.number for i in feed.items] == [43530]
    empty = build_feed("vllm-project/vllm", _entries(seeds, "en"), "en", since=datetime(2030, 1, 1, tzinfo=UTC))
    assert empty.items == []
    assert empty.updated is None


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_atom_is_valid(seeds: Any, lang: Lang) -> None:
    feed = build_feed("vllm-project/vllm", _entries(seeds, lang), lang)
    root = ET.fromstring(render_feed_atom(feed).encode("utf-8"))
    assert root.tag == f"{{{ATOM_NS}}}feed"
    for required in ("id", "title", "updated"):
        assert len(root.findall(f"a:{required}", NS)) == 1, required
    assert root.find("a:link[@rel='alternate']", NS) is not None
    assert root.find("a:author/a:name", NS) is not None  # feed-level author covers every entry
    entries = root.findall("a:entry", NS)
    assert len(entries) == 3
    ids = set()
    for entry in entries:
        for required in ("id", "title", "updated", "summary"):
            assert len(entry.findall(f"a:{required}", NS)) == 1, required
        assert entry.find("a:link", NS) is not None
        updated = entry.findtext("a:updated", namespaces=NS) or ""
        datetime.strptime(updated, "%Y-%m-%dT%H:%M:%SZ")  # RFC 3339
        ids.add(entry.findtext("a:id", namespaces=NS))
    assert len(ids) == 3
    hostile = entries[-1]
    assert "<script>alert(1)</script>" in (hostile.findtext("a:title", namespaces=NS) or "")
    assert hostile.find("a:link", NS).get("href") == "https://github.com/evil/repo/pull/7"  # type: ignore[union-attr]


def test_atom_neutralizes_xml_illegal_characters() -> None:
    from prdigest.models.feed import Feed, FeedItem

    item = FeedItem(
        repository="o/r",
        number=1,
        title="bad\x00\x1bchars",
        original_title="x",
        state="merged",
        verdict="skip",
        verdict_label="skip",
        paragraph="p\x0c",
    )
    root = ET.fromstring(render_feed_atom(Feed(repository="o/r", lang="en", items=[item])).encode())
    assert root.findtext("a:entry/a:title", namespaces=NS) == "bad\ufffd\ufffdchars"


CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def test_atom_stays_well_formed_with_terminal_sequences_in_a_title(seeds: Any) -> None:
    pr = seeds.humming_pr().model_copy(
        update={
            "title": "Fix \x1b[2J\x1b]0;pwned\x07 the spacing\ud800\uffff",
            "body": "\x1b[31mred\r\nline\roverwritten\x00\x85",
        }
    )
    facts = seeds.humming_facts()
    feed = build_feed(pr.repository, [(pr, facts, narrate_extractive(pr, facts, [], "en", "brief"))], "en")
    assert not CONTROL.search(feed.model_dump_json())  # clean for every renderer, not only Atom
    atom = render_feed_atom(feed)
    assert not CONTROL.search(atom.replace("\n", ""))
    root = ET.fromstring(atom.encode("utf-8"))  # lone surrogates are gone too
    title = root.findtext("a:entry/a:title", namespaces=NS) or ""
    assert title.startswith("Fix \ufffd[2J\ufffd]0;pwned\ufffd the spacing")
