"""Fixtures for the files and tests_ci analyzer tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from prdigest.analyzers import files, symbols, tests_ci
from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.registry import build_registry, run_all
from prdigest.models.facts import Facts
from prdigest.models.pullrequest import FileChange, PullRequest


@pytest.fixture
def analyze() -> Callable[..., Facts]:
    registry = build_registry([files.ANALYZER, symbols.ANALYZER, tests_ci.ANALYZER])

    def run(
        *changes: FileChange, rules: dict[str, object] | None = None, repository: str = "vllm-project/vllm"
    ) -> Facts:
        pr = PullRequest(repository=repository, number=7, title="t", files=list(changes))
        return run_all(pr, registry, AnalysisContext(rules=rules or {}))

    return run
