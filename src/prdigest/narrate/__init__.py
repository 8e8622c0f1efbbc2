"""Narrators: prose written on top of the facts (extractive by default, LLM when configured).

Caching narratives in the store is the pipeline's job (`prdigest.pipeline.narrate`).
"""

from prdigest.narrate.extractive import narrate_extractive

__all__ = ["narrate_extractive"]
