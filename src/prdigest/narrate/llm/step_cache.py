"""Answers of single narration steps (file-group summaries), remembered across runs.

A large PR's narration is several calls: the group summaries, then the synthesis. When the
synthesis fails (a timeout, an unusable answer) and is tried again later, or another section
model is added, the summaries already paid for are read back instead of asked again. The key
is the model and the exact messages, with the prompt's random boundary token replaced, so
the same files summarized the same way find their answer. Where it is kept is the caller's
(`pipeline.llm_steps` keeps it in the store); without one nothing is remembered.
"""

from __future__ import annotations

import hashlib
import json
from typing import Protocol


class StepCache(Protocol):
    def recall(self, key: str) -> str | None: ...

    def remember(self, key: str, content: str) -> None: ...


def step_key(model: str, messages: list[dict[str, str]], boundary: str) -> str:
    text = json.dumps(messages, ensure_ascii=False, sort_keys=True).replace(boundary, "<boundary>")
    return hashlib.sha256(f"{model}\n{text}".encode()).hexdigest()
