"""The reading verdict analyzer (see `judge` for the model and its weights)."""

from prdigest.analyzers.verdict.judge import ANALYZER, QUICK_READ, READ_IN_DEPTH, REASON_TEMPLATES, judge

__all__ = ["ANALYZER", "QUICK_READ", "READ_IN_DEPTH", "REASON_TEMPLATES", "judge"]
