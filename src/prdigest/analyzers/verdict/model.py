"""The verdict's fitted part: per-reason multipliers and the two level thresholds.

Stored as data (``data/verdict_model.toml``) with the figures of its training, written by
``benchmarks/verdict_fit.py --write-model`` from hand labels; judge.py keeps the hand-set
scale of each reason, the model says how much each kind of reason counts.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from prdigest.errors import ConfigError

NEGATIVES = "negatives"
# The hand-set weight of a change's core logic by its size: (least lines, weight), largest first.
HAND_SET_CORE_STEPS: tuple[tuple[int, float], ...] = ((600, 3.0), (300, 2.5), (150, 2.0), (40, 1.5), (5, 1.0), (1, 0.5))


@dataclass(frozen=True)
class VerdictModel:
    read_in_depth: float = 3.5
    quick_read: float = 1.0
    multipliers: MappingProxyType[str, float] = field(default_factory=lambda: MappingProxyType({}))
    core_steps: tuple[tuple[int, float], ...] = HAND_SET_CORE_STEPS

    def core_weight(self, lines: int) -> float:
        """The weight of `lines` lines of core logic: the step of the largest floor they reach."""
        return next((weight for floor, weight in self.core_steps if lines >= floor), 0.0)

    def scale(self, code: str, weight: float) -> float:
        """The weight a reason of `code` carries under this model."""
        key = NEGATIVES if weight < 0 else code
        return weight * self.multipliers.get(key, 1.0)


def parse_model(data: dict[str, Any], source: str) -> VerdictModel:
    try:
        deep = float(data["read_in_depth"])
        quick = float(data["quick_read"])
        multipliers = {str(k): float(v) for k, v in dict(data.get("multipliers", {})).items()}
        steps = dict(data.get("core_lines", {}))
        core_steps = (
            tuple(sorted(((int(k), float(v)) for k, v in steps.items()), reverse=True))
            if steps
            else HAND_SET_CORE_STEPS
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"{source}: not a verdict model ({exc})") from exc
    if not 0 < quick < deep:
        raise ConfigError(f"{source}: quick_read must be above 0 and below read_in_depth")
    if any(floor < 1 for floor, _ in core_steps):
        raise ConfigError(f"{source}: a core_lines step starts at 1 line or more")
    return VerdictModel(deep, quick, MappingProxyType(multipliers), core_steps)


@cache
def default_model() -> VerdictModel:
    """The model shipped with prdigest (read once: it is package data, never changed)."""
    text = resources.files("prdigest.analyzers").joinpath("data/verdict_model.toml").read_text("utf-8")
    return parse_model(tomllib.loads(text), "verdict_model.toml")
