"""The ``dependencies`` analyzer: what the PR changes in declared requirements.

Modules: `sources` (which files declare requirements, and what each side declares),
`requirement_lines` (one pip line), `pairing` (before/after pairs per package),
`change_kinds` (cap/floor/pin/exclusion classification), `admission` (versions newly
admitted or excluded), `variants` (CUDA-variant families), `conflicts`, `duplication`,
`rewrites` (findings), `known_versions` (optional release lists), `references`
(``-r``/``-c`` lines).
"""

from prdigest.analyzers.dependencies.analyzer import ANALYZER, analyze_dependencies

__all__ = ["ANALYZER", "analyze_dependencies"]
