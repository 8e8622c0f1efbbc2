"""Lineage across four PRs: added → reverted → (revert did not help) → restored."""

from __future__ import annotations

from datetime import UTC, datetime

from prdigest.analyzers.lineage import invert, lineage_for
from prdigest.analyzers.references import extract_references
from prdigest.models.facts import ReferencesFacts
from prdigest.models.pullrequest import PullRequest

REPO = "vllm-project/vllm"


def _pr(number: int, title: str, body: str) -> PullRequest:
    return PullRequest(repository=REPO, number=number, title=title, body=body)


PRS = [
    _pr(42540, "Add humming-kernels support", "Adds the humming quantization kernels."),
    _pr(
        43492,
        'Revert "Add humming-kernels support (#42540)"',
        "This reverts commit abc1234.\n\nNightly fails to import pytest.",
    ),
    _pr(43528, "Pytest failure after humming removal", "Same failure persists after removing humming, see #43492."),
    _pr(
        43530,
        "Fix CuPy runtime deps and restore humming",
        "#43492 temporarily reverted #42540, but #43528 showed the same failure. "
        "This restores #42540 with a fix. Root cause in cupy 14.1.0.",
    ),
]


def _store() -> tuple[dict[tuple[str, int], ReferencesFacts], dict[tuple[str, int], str]]:
    refs = {(pr.repository, pr.number): extract_references(pr) for pr in PRS}
    titles = {(pr.repository, pr.number): pr.title for pr in PRS}
    return refs, titles


def test_chain_of_the_added_pr_shows_revert_and_restore_incoming() -> None:
    refs, titles = _store()
    links = lineage_for((REPO, 42540), refs, titles)
    seen = [(link.number, link.relation, link.direction) for link in links]
    assert seen == [(43492, "reverted-by", "incoming"), (43530, "restored-by", "incoming")]
    assert links[0].title == 'Revert "Add humming-kernels support (#42540)"'
    assert "Revert" in links[0].evidence


def test_chain_of_the_restoring_pr_shows_its_outgoing_links() -> None:
    refs, titles = _store()
    links = lineage_for((REPO, 43530), refs, titles)
    seen = [(link.number, link.relation, link.direction) for link in links]
    assert seen == [
        (42540, "restores", "outgoing"),
        (43492, "mentions", "outgoing"),
        (43528, "mentions", "outgoing"),
    ]
    assert links[0].title == "Add humming-kernels support"


def test_revert_pr_sees_both_sides() -> None:
    refs, titles = _store()
    links = lineage_for((REPO.upper(), 43492), refs, titles)
    assert {(link.number, link.relation, link.direction) for link in links} == {
        (42540, "reverts", "outgoing"),
        (43528, "mentioned-by", "incoming"),
        (43530, "mentioned-by", "incoming"),
    }


def test_second_hop_follows_strong_links_only_and_time_orders() -> None:
    refs, titles = _store()
    relax = _pr(44000, "Relax CuPy pin", "Follow-up to #43530: only exclude 14.1.0.")
    refs[(REPO, 44000)] = extract_references(relax)
    times = {(REPO, n): datetime(2026, 5, 1 + i, tzinfo=UTC) for i, n in enumerate([42540, 43492, 43528, 43530, 44000])}
    links = lineage_for((REPO, 42540), refs, titles, times, max_hops=2)
    direct = [(link.number, link.relation) for link in links if link.hop == 1]
    further = [(link.number, link.relation, link.via) for link in links if link.hop == 2]
    assert direct == [(43492, "reverted-by"), (43530, "restored-by")]
    assert (44000, "followed-up-by", 43530) in further
    # mentions are not followed past the first hop, and nothing points back at 42540
    assert all(rel not in ("mentions", "mentioned-by") for _, rel, _ in further)
    assert all(number != 42540 for number, _, _ in further)


def test_invert_is_an_involution_for_symmetric_pairs() -> None:
    assert invert("reverts") == "reverted-by"
    assert invert("reverted-by") == "reverts"
    assert invert("restores") == "restored-by"
    assert invert("alternative-to") == "alternative-to"
