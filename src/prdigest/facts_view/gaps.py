"""What the source could not see, in the output language: the one place narrators and
renderers learn whether "none" may be said.

`facts.coverage` (the coverage analyzer) records whether review data was fetched at all and
whether the file list is complete; these helpers turn it into sentences, so that no document
states the absence of what was never fetched. Facts stored before the coverage analyzer
existed default to "available, complete", as every document said before.
"""

from __future__ import annotations

from prdigest.facts_view.evidence import fill
from prdigest.models.facts import EvidenceParams, Facts
from prdigest.words import Labels

# File-list gaps, most telling first; each has a sentence in the labels' [gaps] table, as
# has every other gap code (`GapCode`; tests/words keep the tables complete).
_FILE_GAPS = (
    "shallow-clone-boundary",
    "number-collision",
    "missing-objects",
    "file-list-missing",
    "file-list-truncated",
)


def review_data_available(facts: Facts) -> bool:
    return facts.coverage.review_data


def files_known(facts: Facts) -> bool:
    """True when a claim that something is *not* in the PR may rest on its file list."""
    return facts.coverage.files_known and facts.tests_ci.files_known


def _params(facts: Facts) -> EvidenceParams:
    coverage = facts.coverage
    expected = coverage.files_expected
    return {
        "listed": str(coverage.files_listed),
        "expected": str(expected) if expected else "",
        "sha": [sha[:7] for sha in coverage.missing_commits],
        "files": str(coverage.missing_files) if coverage.missing_files else "",
    }


def file_gap_notes(facts: Facts, lab: Labels) -> list[str]:
    """Why the file list is partial or unknown, one sentence (empty when it is complete)."""
    if files_known(facts):
        return []
    gaps = [gap for gap in _FILE_GAPS if gap in facts.coverage.gaps]
    code = gaps[0] if gaps else ("file-list-truncated" if facts.coverage.files_listed else "file-list-missing")
    return [fill("gaps", code, _params(facts), lab, {})]


def gap_notes(facts: Facts, lab: Labels, *, with_review_data: bool = True) -> list[str]:
    """Every gap of the source, as sentences: the file list, cut-off commits, review data.

    ``with_review_data=False`` leaves out the review-data gap: for a document that says
    says it elsewhere (the brief report's discussion section)."""
    notes = file_gap_notes(facts, lab)
    notes.extend(fill("gaps", gap, _params(facts), lab, {}) for gap in facts.coverage.gaps if gap not in _FILE_GAPS)
    if with_review_data and not review_data_available(facts):
        notes.append(fill("gaps", "review_data", {}, lab, {}))
    return notes
