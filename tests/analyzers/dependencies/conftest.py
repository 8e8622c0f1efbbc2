"""Fixtures for the dependencies analyzer tests: PR records built by hand, run through the registry."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from prdigest.analyzers import dependencies, files
from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.registry import build_registry, run_all
from prdigest.models.facts import Facts
from prdigest.models.pullrequest import FileChange, PullRequest

MakePR = Callable[..., PullRequest]
Analyze = Callable[..., Facts]


def _counts(patch: str) -> tuple[int, int]:
    lines = [line for line in patch.splitlines() if not line.startswith(("+++", "---", "@@"))]
    return sum(line.startswith("+") for line in lines), sum(line.startswith("-") for line in lines)


@pytest.fixture
def make_pr() -> MakePR:
    def build(*changes: FileChange, title: str = "Change deps", body: str = "", number: int = 1) -> PullRequest:
        counted = []
        for change in changes:
            if change.patch and not (change.additions or change.deletions):
                added, removed = _counts(change.patch)
                change = change.model_copy(update={"additions": added, "deletions": removed})
            counted.append(change)
        return PullRequest(repository="vllm-project/vllm", number=number, title=title, body=body, files=counted)

    return build


@pytest.fixture
def analyze() -> Analyze:
    registry = build_registry([files.ANALYZER, dependencies.ANALYZER])

    def run(pr: PullRequest, known: dict[str, list[str]] | None = None) -> Facts:
        return run_all(pr, registry, AnalysisContext(known_versions=known or {}))

    return run
