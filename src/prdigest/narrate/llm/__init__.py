"""The LLM narrator: report prose from any OpenAI-compatible endpoint, on top of facts.

Importing this package does not import the `openai` SDK; the first call does.
"""

from prdigest.narrate.llm.client import cancel_all, cancelled, reset_cancel
from prdigest.narrate.llm.narrator import LLMNarrator, NarrationJob
from prdigest.narrate.llm.prompt import PROMPT_VERSION

__all__ = ["PROMPT_VERSION", "LLMNarrator", "NarrationJob", "cancel_all", "cancelled", "reset_cancel"]
