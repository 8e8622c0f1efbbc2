"""Discussion analysis: bots and noise, thread grouping, kind and outcome."""

from prdigest.analyzers.discussions.analyzer import ANALYZER, analyze_discussion

__all__ = ["ANALYZER", "analyze_discussion"]
