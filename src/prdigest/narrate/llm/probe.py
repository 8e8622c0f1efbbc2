"""`probe`: what an OpenAI-compatible endpoint can do, for ``prdigest llm check``.

Three cheap requests: the model list, one tiny answer in a JSON schema (which shows how
structured output and the output-token limit must be asked for: the client steps down and
tells `memory`, which the CLI backs with the store so later runs ask right at once), and
nothing else. The probe starts from nothing known, whatever `memory` remembers: it is how
what is remembered gets refreshed. Errors are reported as findings, never raised, and never
carry the API key or the server's text.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from prdigest.config import LLMConfig
from prdigest.errors import NarrationError
from prdigest.narrate.llm.capabilities import Capabilities, CapabilityMemory, RunMemory
from prdigest.narrate.llm.client import CallStats, ChatClient
from prdigest.narrate.llm.schema import extract_json_object

PROBE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"ok": {"type": "boolean"}, "word": {"type": "string"}},
    "required": ["ok", "word"],
    "additionalProperties": False,
}
PROBE_MESSAGES = [
    {"role": "system", "content": "Answer with one JSON object only."},
    {"role": "user", "content": 'Return {"ok": true, "word": "ready"}.'},
]


@dataclass
class ProbeResult:
    base_url: str
    model: str
    api_key_set: bool
    models: list[str] | None = None  # None: the list could not be read
    models_error: str = ""
    call_ok: bool = False
    call_error: str = ""
    seconds: float = 0.0
    response_format: str = ""
    token_param: str = ""
    usage: bool | None = None
    answer_valid: bool = False
    rejected: list[str] = field(default_factory=list)

    @property
    def model_listed(self) -> bool | None:
        return None if self.models is None else self.model in self.models


class _FreshStart:
    """`memory` as the client sees it during a probe: nothing recalled, everything learnt told."""

    def __init__(self, memory: CapabilityMemory) -> None:
        self._memory = memory

    def recall(self, endpoint: str, model: str) -> Capabilities | None:
        return None

    def remember(self, endpoint: str, model: str, capabilities: Capabilities) -> None:
        self._memory.remember(endpoint, model, capabilities)


def probe(config: LLMConfig, memory: CapabilityMemory | None = None) -> ProbeResult:
    result = ProbeResult(base_url=config.base_url, model=config.model, api_key_set=bool(config.api_key))
    client = ChatClient(config, sleep=lambda _seconds: None, memory=_FreshStart(memory or RunMemory()))
    try:
        try:
            result.models = client.models()
        except NarrationError as exc:
            result.models_error = _short(str(exc))
        started = time.monotonic()
        try:
            answer = client.complete(PROBE_MESSAGES, config.model, CallStats(), PROBE_SCHEMA)
        except NarrationError as exc:
            result.call_error = _short(str(exc))
        else:
            result.call_ok = True
            try:
                result.answer_valid = extract_json_object(answer.content).get("ok") is True
            except ValueError:
                result.answer_valid = False
        result.seconds = time.monotonic() - started
        caps = client.capabilities(config.model)
    finally:
        client.close()
    result.response_format = caps.response_format or ""
    result.token_param = caps.token_param
    result.usage = caps.usage
    result.rejected = list(caps.rejected)
    return result


def _short(message: str) -> str:
    return message.split(": ", 1)[1] if message.startswith("LLM call to model") else message
