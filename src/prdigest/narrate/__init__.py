"""Narrators: prose written on top of the facts (extractive by default, LLM when configured)."""

from prdigest.narrate.extractive import narrate_extractive
from prdigest.narrate.service import NarrationResult, narrate, narrate_with_status

__all__ = ["NarrationResult", "narrate", "narrate_extractive", "narrate_with_status"]
