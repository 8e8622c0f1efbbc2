"""Reports and feeds from the store: facts analyzed on demand, narratives cached, related work read."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.pipeline.conftest import SMALL_REPO

from prdigest.pipeline.narrate import narrate_with_status
from prdigest.pipeline.related import related_from_store
from prdigest.pipeline.report import feed_for, report_for, stored_or_current_facts
from prdigest.store import Store
from prdigest.store.facts_store import get_facts


def test_a_report_analyzes_narrates_and_caches(small_store: Store) -> None:
    assert get_facts(small_store, SMALL_REPO, 2) is None
    report = report_for(small_store, SMALL_REPO, 2, "en", "full", None)
    assert (report.header.number, report.lang, report.length) == (2, "en", "full")
    assert report.narrator.narrator == "extractive"
    facts = get_facts(small_store, SMALL_REPO, 2)
    assert facts is not None  # facts were analyzed and kept
    pr = small_store.get_pr(SMALL_REPO, 2)
    related = related_from_store(small_store, SMALL_REPO, 2)
    assert narrate_with_status(small_store, pr, facts, related, "en", "full", None).cached
    assert report_for(small_store, SMALL_REPO, 2, "en", "full", None) == report


def test_a_report_names_related_work_from_the_store(small_store: Store) -> None:
    for number in (1, 2, 3):  # the links other PRs make are known once they are analyzed
        report_for(small_store, SMALL_REPO, number, "en", "brief", None)
    related = {
        item.number: item.relation for item in report_for(small_store, SMALL_REPO, 2, "en", "full", None).related
    }
    assert related[3] == "reverted-by"
    assert 1 in related


def test_a_feed_holds_the_window_newest_first(small_store: Store) -> None:
    feed = feed_for(small_store, SMALL_REPO, "zh", None)
    assert (feed.repository, feed.lang) == (SMALL_REPO, "zh")
    assert [item.number for item in feed.items] == [3, 2, 1]
    assert all(item.paragraph.startswith(item.verdict_label) for item in feed.items)
    assert [item.number for item in feed_for(small_store, SMALL_REPO, "en", None, limit=1).items] == [3]
    later = feed_for(small_store, SMALL_REPO, "en", None, since=datetime(2100, 1, 1, tzinfo=UTC))
    assert later.items == []


def test_stored_facts_are_shown_as_they_are(small_store: Store) -> None:
    pr = small_store.get_pr(SMALL_REPO, 1)
    first = stored_or_current_facts(small_store, pr)  # none stored: analyzed now
    assert get_facts(small_store, SMALL_REPO, 1) == first
    assert stored_or_current_facts(small_store, pr) == first
