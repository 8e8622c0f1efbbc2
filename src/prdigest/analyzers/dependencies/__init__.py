"""The ``dependencies`` analyzer: what the PR changes in declared requirements.

Modules: `sources` (which files declare requirements, and what each side declares),
`requirement_lines` (one pip line), `pairing` (before/after pairs per package),
`change_kinds` (cap/floor/pin/exclusion classification), `admission` (versions newly
admitted or excluded), `variants` (CUDA-variant families), `conflicts`, `duplication`,
`rewrites` (findings), `known_versions` (optional release lists), `references`
(``-r``/``-c`` lines).

The names below are loaded on first use (PEP 562): the report's narrator reads `moves`
without loading the analyzer (packaging's parsers, the diff model).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prdigest.lazy_exports import lazy_getattr

if TYPE_CHECKING:
    from prdigest.analyzers.dependencies.analyzer import ANALYZER, analyze_dependencies

__all__ = ["ANALYZER", "analyze_dependencies"]

_WHERE = {
    "ANALYZER": "prdigest.analyzers.dependencies.analyzer",
    "analyze_dependencies": "prdigest.analyzers.dependencies.analyzer",
}

__getattr__ = lazy_getattr(__name__, _WHERE)
