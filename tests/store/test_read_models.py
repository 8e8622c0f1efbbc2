"""The web's read models, straight from the store, on both backends."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from tests.helpers.sample_store import REPO, _facts

from prdigest.errors import NotFound
from prdigest.models.facts import Reference, VerdictLevel
from prdigest.models.narrative import Narrative
from prdigest.models.pullrequest import PullRequest
from prdigest.store import Store
from prdigest.store.facts_store import save_facts
from prdigest.store.feed_query import FeedFilter, feed_page
from prdigest.store.generation import generation_reader
from prdigest.store.narrative_store import save_narrative
from prdigest.store.read_models import (
    Facets,
    LabelCount,
    RepositoryRow,
    facets,
    facets_by_repository,
    list_repositories,
    report_stamp,
)

EVERY = FeedFilter()


def numbers(store: Store, filters: FeedFilter = EVERY, *, limit: int = 30, offset: int = 0) -> list[int]:
    return [row.number for row in feed_page(store, REPO, filters, "en", limit=limit, offset=offset)]


def test_the_feed_is_newest_first_with_verdicts_labels_and_reasons(any_store: Store) -> None:
    rows = feed_page(any_store, REPO, FeedFilter(), "en", limit=30, offset=0)
    assert [row.number for row in rows] == [5, 4, 3, 2, 1]
    third = rows[2]
    assert (third.title, third.author, third.state) == ("Restore CUDA detection with a ROCm guard", "alice", "merged")
    assert third.date == datetime(2026, 3, 3, 12)
    assert (third.additions, third.deletions) == (30, 3)
    assert (third.verdict, third.score) == ("read-in-depth", 1.0)
    assert third.labels == (
        ("module", "build"),
        ("module", "rocm"),
        ("risk", "dependency-upgrade"),
        ("risk", "missing-regression-test"),
    )
    # No narrative yet: the verdict's first reason stands in for the paragraph.
    assert (third.feed_title, third.feed_paragraph, third.reason) == (None, None, "reason 3")


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        (FeedFilter(verdict="read-in-depth"), [3, 1]),
        (FeedFilter(risk="missing-regression-test"), [3, 1]),
        (FeedFilter(module="build"), [3, 2, 1]),
        (FeedFilter(module="build", verdict="quick-read"), [2]),
        (FeedFilter(author="alice"), [3, 1]),
        (FeedFilter(since=date(2026, 3, 2), until=date(2026, 3, 4)), [4, 3, 2]),
        (FeedFilter(until=date(2026, 3, 1)), [1]),
        (FeedFilter(risk="no-such-risk"), []),
    ],
)
def test_feed_filters(any_store: Store, filters: FeedFilter, expected: list[int]) -> None:
    assert numbers(any_store, filters) == expected


def test_feed_pages(any_store: Store) -> None:
    assert numbers(any_store, limit=2) == [5, 4]
    assert numbers(any_store, limit=2, offset=2) == [3, 2]
    assert numbers(any_store, limit=2, offset=4) == [1]
    assert numbers(any_store, limit=2, offset=6) == []


def test_the_feed_shows_narrated_prose_of_the_language_asked(any_store: Store) -> None:
    pr_id = any_store.pr_id(REPO, 2)
    for length in ("full", "brief"):
        narrative = Narrative(
            lang="en", length=length, one_line="x", recommendation="y", motivation="z",
            feed_title=f"{length} title", feed_paragraph=f"{length} paragraph",
        )  # fmt: skip
        save_narrative(any_store, pr_id, narrative, "k")
    (row,) = [r for r in feed_page(any_store, REPO, FeedFilter(), "en", limit=30, offset=0) if r.number == 2]
    assert (row.feed_title, row.feed_paragraph, row.reason) == ("brief title", "brief paragraph", None)
    (row,) = [r for r in feed_page(any_store, REPO, FeedFilter(), "zh", limit=30, offset=0) if r.number == 2]
    assert (row.feed_title, row.feed_paragraph, row.reason) == (None, None, "reason 2")


def test_an_unknown_repository_is_not_found(any_store: Store) -> None:
    with pytest.raises(NotFound, match="no/such"):
        feed_page(any_store, "no/such", FeedFilter(), "en", limit=30, offset=0)
    with pytest.raises(NotFound, match="no/such"):
        facets(any_store, "no/such")
    with pytest.raises(NotFound, match="no/such#1"):
        report_stamp(any_store, "no/such", 1)


def test_facets_count_labels_most_frequent_first(any_store: Store) -> None:
    expected = Facets(
        risks=(
            LabelCount("missing-regression-test", 2),
            LabelCount("dependency-constraint-change", 1),
            LabelCount("dependency-upgrade", 1),
            LabelCount("revert", 1),
        ),
        modules=(
            LabelCount("build", 3),
            LabelCount("deps", 1),
            LabelCount("parser", 1),
            LabelCount("rocm", 1),
        ),
    )
    assert facets(any_store, REPO) == expected
    any_store.upsert_prs([PullRequest(repository="other/repo", number=1, title="x")])
    assert facets(any_store, "other/repo") == Facets()
    assert facets_by_repository(any_store) == {REPO: expected}  # only repositories with labels


def test_repositories_with_counts(any_store: Store) -> None:
    any_store.upsert_prs([PullRequest(repository="other/repo", number=1, title="x")])
    assert list_repositories(any_store) == [
        RepositoryRow(REPO, pull_requests=5, analyzed=5, latest=datetime(2026, 3, 5, 12)),
        RepositoryRow("other/repo", pull_requests=1, analyzed=0, latest=None),
    ]


def test_the_report_stamp_changes_with_what_a_report_shows(any_store: Store) -> None:
    first = report_stamp(any_store, REPO, 1)
    assert report_stamp(any_store, REPO, 1) == first
    assert first.pull_request_id == any_store.pr_id(REPO, 1)
    any_store.upsert_prs([PullRequest(repository=REPO, number=1, title="Retitled")])
    retitled = report_stamp(any_store, REPO, 1)
    assert retitled.record_hash != first.record_hash
    save_facts(any_store, first.pull_request_id, _facts(1, VerdictLevel.SKIP, [], []), cache_key="other")
    assert report_stamp(any_store, REPO, 1).facts_key == "other"
    # A new incoming link (from #4's facts) changes #1's stamp too.
    before = report_stamp(any_store, REPO, 1)
    reference = Reference(repository=REPO, number=1, target_kind="pr", relation="mentions", evidence="see #1")
    save_facts(any_store, any_store.pr_id(REPO, 4), _facts(4, VerdictLevel.SKIP, [], [], [reference]), "x")
    assert report_stamp(any_store, REPO, 1).narratives != before.narratives


def test_the_generation_moves_with_every_committed_write(any_store: Store) -> None:
    reader = generation_reader(any_store)
    assert reader is not None
    try:
        first = reader.read()
        assert reader.read() == first  # nothing written
        any_store.upsert_prs([PullRequest(repository=REPO, number=1, title="Retitled")])
        second = reader.read()
        assert second != first
        reader.close()  # a closed reader opens a new connection on the next read
        any_store.upsert_prs([PullRequest(repository=REPO, number=1, title="Retitled again")])
        assert reader.read() is not None
    finally:
        reader.close()


def test_the_feed_shows_the_configured_models_newest_success(any_store: Store) -> None:
    """One rule, in the feed query and `shown_narrative` alike, on both backends: the newest
    successful narrative of the configured model (``n.model = :model``), else the offline one;
    a fallback (offline text stored under the model) and another model's success are never
    shown for it."""
    from prdigest.models.narrative import NarrationCost
    from prdigest.store.narrative_store import shown_narrative

    pr_id = any_store.pr_id(REPO, 2)

    def save(key: str, narrator: str, model: str | None, paragraph: str) -> None:
        narrative = Narrative(
            lang="en", length="brief", narrator=narrator, one_line="x", recommendation="y", motivation="z",
            feed_title=paragraph, feed_paragraph=paragraph, cost=NarrationCost(model=model),
        )  # fmt: skip
        save_narrative(any_store, pr_id, narrative, key)

    save("offline", "extractive", None, "offline")
    save("a-old", "llm", "model-a", "model a, older")
    save("a-new", "llm", "model-a", "model a, newest")
    save("b", "llm", "model-b", "model b")
    save("a-failed:fallback", "extractive", "model-a", "model a's fallback")

    def paragraph(model: str | None) -> str | None:
        rows = feed_page(any_store, REPO, FeedFilter(), "en", limit=30, offset=0, model=model)
        (row,) = [r for r in rows if r.number == 2]
        shown = shown_narrative(any_store, pr_id, "en", "brief", model)
        assert shown is not None
        assert shown.feed_paragraph == row.feed_paragraph  # the web page and the feed agree
        return row.feed_paragraph

    assert paragraph("model-a") == "model a, newest"
    assert paragraph("model-b") == "model b"
    assert paragraph(None) in ("offline", "model a's fallback")  # offline text either way
    assert paragraph("model-c") in ("offline", "model a's fallback")
