"""What an OpenAI-compatible endpoint accepts, and where that is remembered.

A 400 on ``response_format`` (or on ``max_tokens``) is a normal answer from some servers;
what the client learns from it is kept per endpoint (base URL + model) in a
`CapabilityMemory` handed to the client. `RunMemory` keeps it for one run; the pipeline
passes one backed by the store, so the next run asks right the first time. This module
imports nothing heavy, so the pipeline can implement the protocol without the SDK.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol
from urllib.parse import urlsplit, urlunsplit

ResponseFormat = Literal["json_schema", "json_object", "none"]
TokenParam = Literal["max_tokens", "max_completion_tokens"]
FORMAT_STEPS: tuple[ResponseFormat, ...] = ("json_schema", "json_object", "none")


@dataclass
class Capabilities:
    """What one endpoint (base URL + model) accepts, learnt from its answers."""

    response_format: ResponseFormat | None = None  # None: not probed yet (ask for the best)
    token_param: TokenParam = "max_tokens"
    usage: bool | None = None  # does it report token usage?
    rejected: list[str] = field(default_factory=list)  # what it answered 400 to

    def copy(self) -> Capabilities:
        return replace(self, rejected=list(self.rejected))


class CapabilityMemory(Protocol):
    """Where capabilities are kept between calls (and, backed by the store, between runs)."""

    def recall(self, endpoint: str, model: str) -> Capabilities | None: ...

    def remember(self, endpoint: str, model: str, capabilities: Capabilities) -> None: ...


class RunMemory:
    """Capabilities kept for as long as this object lives (one run, or one probe)."""

    def __init__(self) -> None:
        self._known: dict[tuple[str, str], Capabilities] = {}
        self._lock = threading.Lock()

    def recall(self, endpoint: str, model: str) -> Capabilities | None:
        with self._lock:
            known = self._known.get((endpoint, model))
            return None if known is None else known.copy()

    def remember(self, endpoint: str, model: str, capabilities: Capabilities) -> None:
        with self._lock:
            self._known[(endpoint, model)] = capabilities.copy()


def endpoint_key(base_url: str) -> str:
    """The endpoint as remembered: no user or password in it (some put a key there), no
    query or fragment, no trailing slash."""
    parts = urlsplit(base_url.strip())
    host = parts.hostname or ""
    if ":" in host:  # IPv6
        host = f"[{host}]"
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path.rstrip("/"), "", ""))
