"""The verdict's fitted part is data: multipliers and thresholds change the levels it gives."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.defaults import default_registry
from prdigest.analyzers.registry import run_all
from prdigest.analyzers.verdict import VerdictModel, default_model, judge
from prdigest.analyzers.verdict.model import parse_model
from prdigest.errors import ConfigError
from prdigest.models.facts import Facts, VerdictLevel
from prdigest.models.pullrequest import FileChange, PullRequest


def _facts_of_a_small_fix() -> tuple[PullRequest, Facts]:
    lines = [f"-    return value + {i}" for i in range(3)] + [f"+    return value - {i}" for i in range(3)]
    patch = "@@ -1,4 +1,4 @@\n def step(value):\n" + "\n".join(lines) + "\n"
    change = FileChange(path="src/lib/core.py", additions=3, deletions=3, patch=patch)
    pr = PullRequest(repository="acme/lib", number=3, title="Correct the step", author="dev", files=[change])
    return pr, run_all(pr, default_registry(), AnalysisContext())


def _rejudge(pr: PullRequest, facts: Facts, model: VerdictModel) -> VerdictLevel:
    verdict = judge(
        pr, facts.files, facts.tests_ci, facts.dependencies, facts.symbols, facts.references,
        facts.discussion, facts.risks, model,
    )  # fmt: skip
    return verdict.level


def test_the_shipped_model_is_the_one_analyze_applies() -> None:
    pr, facts = _facts_of_a_small_fix()
    assert _rejudge(pr, facts, default_model()) is facts.verdict.level


def test_multipliers_and_thresholds_move_the_level() -> None:
    pr, facts = _facts_of_a_small_fix()
    shipped = default_model()
    assert facts.verdict.level is VerdictLevel.QUICK_READ
    heavier = VerdictModel(shipped.read_in_depth, shipped.quick_read, MappingProxyType({"core-change": 4.0}))
    assert _rejudge(pr, facts, heavier) is VerdictLevel.READ_IN_DEPTH
    stricter = VerdictModel(shipped.read_in_depth, 2.5, shipped.multipliers)
    assert _rejudge(pr, facts, stricter) is VerdictLevel.SKIP


def test_a_scaled_weight_is_what_the_reason_shows() -> None:
    pr, facts = _facts_of_a_small_fix()
    doubled = VerdictModel(3.5, 1.0, MappingProxyType({"core-change": 2.0}))
    verdict = judge(
        pr, facts.files, facts.tests_ci, facts.dependencies, facts.symbols, facts.references,
        facts.discussion, facts.risks, doubled,
    )  # fmt: skip
    shipped = {r.code: r.weight for r in facts.verdict.reasons}
    assert {r.code: r.weight for r in verdict.reasons}["core-change"] == 2 * shipped["core-change"]
    assert verdict.score == round(sum(r.weight for r in verdict.reasons), 2)


@pytest.mark.parametrize(
    "data",
    [{"quick_read": 1.0}, {"read_in_depth": 1.0, "quick_read": 2.0}, {"read_in_depth": 3, "quick_read": "x"}],
)
def test_a_broken_model_is_a_config_error(data: dict[str, object]) -> None:
    with pytest.raises(ConfigError, match=r"model\.toml"):
        parse_model(data, "model.toml")
