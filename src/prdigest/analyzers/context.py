"""What an analyzer may read besides the PR: repository rules and earlier results."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TypeVar

from pydantic import BaseModel

from prdigest.analyzers.import_graph import ImportGraph
from prdigest.errors import AnalysisError

T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True)
class AnalysisContext:
    # Per-repository classification overrides, parsed from a TOML file (see analyzers.files).
    rules: dict[str, object] = field(default_factory=dict)
    # Released versions per package name (canonicalized), when an index was given.
    known_versions: dict[str, list[str]] = field(default_factory=dict)
    results: dict[str, BaseModel] = field(default_factory=dict)
    # Who imports which file, per repository (lower-case), read from its clone when there is
    # one (pipeline/import_graphs.py): the fan-in of the files a PR changes.
    import_graphs: dict[str, ImportGraph] = field(default_factory=dict)

    def import_graph(self, repository: str) -> ImportGraph | None:
        return self.import_graphs.get(repository.lower())

    def with_results(self, results: dict[str, BaseModel]) -> AnalysisContext:
        return replace(self, results=dict(results))

    def result(self, name: str, kind: type[T]) -> T:
        """The result of an analyzer this one declared in ``requires``."""
        value = self.results.get(name)
        if not isinstance(value, kind):
            raise AnalysisError(f"result {name!r} is not available; declare it in requires")
        return value
