"""The reading verdict analyzer (see `judge` for the reasons, `model` for their fitted weights)."""

from prdigest.analyzers.verdict.judge import ANALYZER, REASON_TEMPLATES, judge
from prdigest.analyzers.verdict.model import VerdictModel, default_model

__all__ = ["ANALYZER", "REASON_TEMPLATES", "VerdictModel", "default_model", "judge"]
