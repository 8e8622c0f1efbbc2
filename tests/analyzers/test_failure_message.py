"""An analyzer that fails names the PR, the step and what to do, in one line (issue 24)."""

from __future__ import annotations

import pytest

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.coverage import ANALYZER as COVERAGE
from prdigest.analyzers.registry import Analyzer, build_registry, run_all
from prdigest.errors import AnalysisError
from prdigest.models.facts import CoverageFacts
from prdigest.models.pullrequest import PullRequest


def _invalid_coverage(pr: PullRequest, ctx: AnalysisContext) -> CoverageFacts:
    # What issue 24 saw: a code the facts model does not hold (pydantic's multi-line error).
    return CoverageFacts.model_validate({"gaps": ["no-such-gap"]})


def _broken(pr: PullRequest, ctx: AnalysisContext) -> CoverageFacts:
    raise KeyError("line one\nline two")


@pytest.mark.parametrize(
    ("run", "why"),
    [(_invalid_coverage, "CoverageFacts gaps.0: Input should be"), (_broken, "KeyError: 'line one")],
)
def test_a_failing_analyzer_says_which_pr_which_step_and_what_to_do(run: object, why: str) -> None:
    registry = build_registry([Analyzer(name="coverage", version="x", run=run)])  # type: ignore[arg-type]
    pr = PullRequest(repository="acme/widget", number=12, title="Add the widget")
    with pytest.raises(AnalysisError) as info:
        run_all(pr, registry, AnalysisContext())
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("acme/widget#12: the coverage analyzer failed (")
    assert why in message
    assert "`prdigest show acme/widget#12 --json`" in message
    assert "errors.pydantic.dev" not in message


def test_the_real_coverage_analyzer_holds_every_reason_a_git_source_records() -> None:
    registry = build_registry([COVERAGE])
    pr = PullRequest(repository="acme/widget", number=3, title="x", incomplete=["number-collision"])
    facts = run_all(pr, registry, AnalysisContext())
    assert facts.coverage.gaps == ["number-collision"]
