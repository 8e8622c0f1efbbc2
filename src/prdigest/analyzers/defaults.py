"""The default set of analyzers, in one registry: what `prdigest analyze` runs."""

from __future__ import annotations

import importlib

from prdigest.analyzers.registry import Analyzer, Registry, build_registry
from prdigest.errors import AnalysisError

# Module names, not objects: each module exposes a module-level ``ANALYZER``.
DEFAULT_ANALYZER_MODULES: tuple[str, ...] = (
    "prdigest.analyzers.coverage",
    "prdigest.analyzers.files",
    "prdigest.analyzers.tests_ci",
    "prdigest.analyzers.dependencies",
    "prdigest.analyzers.symbols",
    "prdigest.analyzers.references",
    "prdigest.analyzers.discussions",
    "prdigest.analyzers.risks",
    "prdigest.analyzers.verdict",
)


def default_analyzers() -> list[Analyzer]:
    """The ``ANALYZER`` of every default module, in the order listed."""
    analyzers: list[Analyzer] = []
    for name in DEFAULT_ANALYZER_MODULES:
        analyzer = importlib.import_module(name).ANALYZER
        if not isinstance(analyzer, Analyzer):
            raise AnalysisError(f"{name}.ANALYZER is not an Analyzer")
        analyzers.append(analyzer)
    return analyzers


def default_registry() -> Registry:
    """A registry with every analyzer of prdigest, ready for `run_all`."""
    return build_registry(default_analyzers())
