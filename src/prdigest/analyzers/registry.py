"""A small registry of analyzers: pure functions from a `PullRequest` to one facts model.

An analyzer declares the name of the `Facts` field it fills, a version (bump it when its
output changes, which invalidates cached results), and the analyzers it needs to run
first. `run_all` runs them in dependency order and assembles `Facts`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from pydantic import BaseModel

from prdigest.analyzers.context import AnalysisContext
from prdigest.errors import AnalysisError
from prdigest.interrupts import CTRL_C
from prdigest.models.facts import Facts
from prdigest.models.pullrequest import PullRequest


@dataclass(frozen=True)
class Analyzer:
    name: str  # the Facts field it fills: files, symbols, dependencies, ...
    version: str
    run: Callable[[PullRequest, AnalysisContext], BaseModel]
    requires: tuple[str, ...] = ()


@dataclass
class Registry:
    analyzers: dict[str, Analyzer] = field(default_factory=dict)

    def register(self, analyzer: Analyzer) -> None:
        if analyzer.name not in Facts.model_fields:
            raise AnalysisError(f"analyzer {analyzer.name!r} fills no Facts field")
        self.analyzers[analyzer.name] = analyzer

    def ordered(self) -> list[Analyzer]:
        """Analyzers sorted so that each comes after what it requires."""
        done: list[Analyzer] = []
        seen: set[str] = set()

        def visit(name: str, stack: tuple[str, ...]) -> None:
            if name in seen:
                return
            if name in stack:
                raise AnalysisError(f"analyzer dependency cycle: {' -> '.join((*stack, name))}")
            analyzer = self.analyzers.get(name)
            if analyzer is None:
                raise AnalysisError(f"unknown analyzer {name!r} required by {stack[-1] if stack else '?'}")
            for dep in analyzer.requires:
                visit(dep, (*stack, name))
            seen.add(name)
            done.append(analyzer)

        for name in self.analyzers:
            visit(name, ())
        return done

    def versions(self) -> dict[str, str]:
        return {a.name: a.version for a in self.ordered()}


def run_all(pr: PullRequest, registry: Registry, context: AnalysisContext) -> Facts:
    """Run every analyzer on one PR and gather the results."""
    results: dict[str, BaseModel] = {}
    for analyzer in registry.ordered():
        try:
            results[analyzer.name] = analyzer.run(pr, context.with_results(results))
        except AnalysisError:
            raise
        except Exception as exc:  # an analyzer bug must name the PR and analyzer
            CTRL_C.raise_if_pressed()
            raise AnalysisError(f"analyzer {analyzer.name} failed on {pr.ref}: {exc!r}") from exc
    return Facts(
        repository=pr.repository,
        number=pr.number,
        head_sha=pr.head_sha,
        analyzer_versions=registry.versions(),
        **results,  # type: ignore[arg-type]
    )


def build_registry(analyzers: Iterable[Analyzer]) -> Registry:
    registry = Registry()
    for analyzer in analyzers:
        registry.register(analyzer)
    return registry
