"""The ``coverage`` analyzer: what the source could see of a PR, so no one states the absence
of what was never fetched.

- Review data: a git clone holds no reviews, review comments or conversation comments; a
  GitHub sync or a bundle does. (`PullRequest.source` says which.)
- File list: "unknown" when the source could not list the files at all (the merge commit of a
  shallow clone's cut-off, or a GitHub PR listing no file while saying it changed some),
  "partial" when it listed fewer than it says the PR changed (GitHub stops at 3,000 files);
  a truncated *patch* of a listed file does not make the list partial.
- Gaps: the codes of both, with the source's own `PullRequest.incomplete` reasons (one
  vocabulary: `GapCode`). A PR landed in several commits of one number ("number-collision")
  has a partial list, and the parts not read are named.
"""

from __future__ import annotations

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.registry import Analyzer
from prdigest.analyzers.versions import DEFAULT_VERSIONS
from prdigest.models.facts import CoverageFacts, FileListState, GapCode
from prdigest.models.pullrequest import IncompleteReason, PullRequest
from prdigest.models.states import CoverageGap

# Sources that hold no review data at all.
_NO_REVIEW_DATA = frozenset({"git"})
_KNOWN_GAPS: frozenset[str] = frozenset(reason.value for reason in IncompleteReason)


def file_list_state(pr: PullRequest) -> FileListState:
    listed = len(pr.files)
    expected = pr.changed_files_count
    if IncompleteReason.SHALLOW_BOUNDARY.value in pr.incomplete:
        return "unknown"
    if IncompleteReason.NUMBER_COLLISION.value in pr.incomplete:
        # A part of the PR landed in another commit whose files are not in the list.
        return "partial"
    if expected is not None and expected > listed:
        return "unknown" if listed == 0 else "partial"
    if expected is None and pr.files_truncated:
        # The source marked the list cut without saying how long it is.
        return "unknown" if listed == 0 else "partial"
    return "complete"


def holds_review_data(pr: PullRequest) -> bool:
    """Whether the PR's source fetched reviews and comments at all (a git clone holds none)."""
    return pr.source not in _NO_REVIEW_DATA


def analyze_coverage(pr: PullRequest, ctx: AnalysisContext) -> CoverageFacts:
    state = file_list_state(pr)
    # A source's reason prdigest does not know (a newer source's) is not told: say less.
    gaps: list[GapCode] = [IncompleteReason(reason) for reason in pr.incomplete if reason in _KNOWN_GAPS]
    if state == "partial" and not {IncompleteReason.NUMBER_COLLISION, IncompleteReason.MISSING_OBJECTS} & set(gaps):
        gaps.append(CoverageGap.FILE_LIST_TRUNCATED)
    elif state == "unknown" and not {IncompleteReason.SHALLOW_BOUNDARY, IncompleteReason.MISSING_OBJECTS} & set(gaps):
        # Those two already say why no file could be listed.
        gaps.append(CoverageGap.FILE_LIST_MISSING)
    parts = [c for c in pr.same_number_commits if c.files_changed and not c.another_pr]
    return CoverageFacts(
        missing_commits=[c.sha for c in parts],
        missing_files=sum(c.files_changed for c in parts),
        review_data=holds_review_data(pr),
        file_list=state,
        files_listed=len(pr.files),
        files_expected=pr.changed_files_count,
        gaps=list(dict.fromkeys(gaps)),
    )


ANALYZER = Analyzer(name="coverage", version=DEFAULT_VERSIONS["coverage"], run=analyze_coverage, requires=())
