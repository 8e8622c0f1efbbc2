"""One vocabulary for gaps (issue 24): every reason a source can record is a gap the facts
hold, and every gap is said in every language."""

from __future__ import annotations

from typing import get_args

import pytest

from prdigest.facts_view.gaps import gap_notes
from prdigest.models.facts import CoverageFacts, Facts, GapCode
from prdigest.models.states import CoverageGap, IncompleteReason
from prdigest.words import CATALOG, languages

EVERY_GAP = [*IncompleteReason, *CoverageGap]


def test_the_gap_codes_are_the_sources_reasons_and_the_file_list_gaps() -> None:
    assert set(get_args(GapCode)) == {IncompleteReason, CoverageGap}


@pytest.mark.parametrize("reason", list(IncompleteReason))
def test_every_reason_a_source_records_is_a_gap_the_facts_hold(reason: IncompleteReason) -> None:
    stored = CoverageFacts(gaps=[reason.value]).model_dump_json()
    assert CoverageFacts.model_validate_json(stored).gaps == [reason]


@pytest.mark.parametrize("lang", languages())
@pytest.mark.parametrize("gap", EVERY_GAP)
def test_every_gap_is_told_in_every_language(gap: str, lang: str) -> None:
    coverage = CoverageFacts(
        gaps=[gap],
        file_list="complete" if gap in ("shallow-clone-commits",) else "partial",
        files_listed=2,
        files_expected=5,
        missing_commits=["0123456789abcdef0123456789abcdef01234567"] if gap == "number-collision" else [],
        missing_files=3 if gap == "number-collision" else 0,
        review_data=True,  # its own gap, told apart
    )
    facts = Facts(repository="o/r", number=1, head_sha=None, coverage=coverage)
    notes = gap_notes(facts, CATALOG.labels(lang))
    assert len(notes) == 1, notes
    assert "{" not in notes[0]  # every placeholder filled
    if gap == "number-collision":
        assert "0123456" in notes[0]
        assert "3" in notes[0]
