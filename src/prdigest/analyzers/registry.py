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
        except Exception as exc:  # an analyzer bug must name the PR, the step and what to do
            CTRL_C.raise_if_pressed()
            raise AnalysisError(analyzer_failure(pr.ref, analyzer.name, exc)) from exc
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


def analyzer_failure(ref: str, step: str, exc: BaseException) -> str:
    """One line: which PR, which analyzer, why (never a multi-line dump), and what to do."""
    return (
        f"{ref}: the {step} analyzer failed ({one_line_reason(exc)}); this is a prdigest bug, not "
        f"your data's fault: the other pull requests are analyzed. Report it with the output of "
        f"`prdigest show {ref} --json`"
    )


def one_line_reason(exc: BaseException, limit: int = 240) -> str:
    """The exception's kind and first line; a pydantic error's first problem and where it was."""
    errors = getattr(exc, "errors", None)
    title = getattr(exc, "title", None)
    if callable(errors) and isinstance(title, str):  # a pydantic ValidationError, not imported
        first = (errors() or [{}])[0]
        # the field's path, without the union members pydantic tried (str-enum[...])
        where = ".".join(str(part) for part in first.get("loc", ()) if "[" not in str(part))
        text = f"{title} {where}: {first.get('msg', '')}".strip()
    else:
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        text = f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"
