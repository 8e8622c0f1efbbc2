"""A chat-completions call to any OpenAI-compatible endpoint, with our own retry policy.

The `openai` SDK is imported when a client is made, not when this module is imported, so
the CLI starts fast. The SDK's retries are off (``max_retries=0``); instead:

* 429: wait for ``Retry-After`` (seconds or an HTTP date; ``retry-after-ms`` too) when the
  wait is at most `MAX_RATE_LIMIT_WAIT`, up to `RATE_LIMIT_RETRIES` times;
* 500 / 502 / 503 / 504: retry `SERVER_ERROR_RETRIES` times with a growing back-off;
* timeouts and connection errors: retry once;
* 400 while asking for ``response_format``: a normal answer from servers that lack it; step
  down (JSON schema, then ``json_object``, then plain text with extraction) and remember
  what the endpoint accepts in the `CapabilityMemory` the client was given (the store's,
  from the pipeline), so later calls and later runs ask right the first time;
* 400 naming ``max_tokens``: hosted APIs for newer models want ``max_completion_tokens``;
  switch and remember;
* anything else: fail at once.

Calls can be cancelled (`cancel_all`, on Ctrl-C): the HTTP clients are closed, so calls in
flight end at once, and no new call starts.

A failure raises `NarrationError` with a message that names the kind of failure only:
never the API key, the request or the server's text.
"""

from __future__ import annotations

import contextlib
import email.utils
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from prdigest.config import LLMConfig
from prdigest.errors import NarrationError
from prdigest.narrate.llm.capabilities import (
    FORMAT_STEPS,
    Capabilities,
    CapabilityMemory,
    ResponseFormat,
    RunMemory,
    TokenParam,
    endpoint_key,
)

if TYPE_CHECKING:
    from openai import OpenAI

MAX_RATE_LIMIT_WAIT = 60.0
RATE_LIMIT_RETRIES = 3
SERVER_ERROR_RETRIES = 2
TIMEOUT_RETRIES = 1
BACKOFF_SECONDS = (1.0, 3.0, 6.0)
RETRIED_STATUSES = frozenset({500, 502, 503, 504})
DUMMY_API_KEY = "not-needed"  # local servers want some key; they ignore its value


# Ctrl-C is process-wide by nature: it stops every client of the process.
_CLIENTS_LOCK = threading.Lock()
_CANCELLED = threading.Event()
_OPEN_CLIENTS: set[ChatClient] = set()


def cancel_all() -> None:
    """Stop every call in flight and refuse new ones (Ctrl-C): closing the HTTP clients
    makes a blocked read fail at once instead of after the timeout."""
    _CANCELLED.set()
    with _CLIENTS_LOCK:
        clients = list(_OPEN_CLIENTS)
    for client in clients:
        with contextlib.suppress(Exception):  # closing is best effort; we are on the way out
            client.close()


def cancelled() -> bool:
    return _CANCELLED.is_set()


def reset_cancel() -> None:
    _CANCELLED.clear()


@dataclass
class CallStats:
    """What the calls of one narration cost, failed ones included."""

    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    seconds: float = 0.0
    usage_missing: bool = False


@dataclass(frozen=True)
class ChatAnswer:
    content: str
    tokens_in: int | None
    tokens_out: int | None


class ChatClient:
    def __init__(
        self,
        config: LLMConfig,
        *,
        sleep: Callable[[float], None] = time.sleep,
        memory: CapabilityMemory | None = None,
    ) -> None:
        from openai import OpenAI  # heavy: imported only when an LLM is really used

        self._config = config
        self._sleep = sleep
        self._memory: CapabilityMemory = memory if memory is not None else RunMemory()
        self._endpoint = endpoint_key(config.base_url)
        self._caps: dict[str, Capabilities] = {}  # per model, as recalled and learnt
        self._caps_lock = threading.Lock()
        self._client: OpenAI = OpenAI(
            base_url=config.base_url,
            api_key=config.api_key or DUMMY_API_KEY,
            timeout=config.timeout,
            max_retries=0,
        )
        with _CLIENTS_LOCK:
            _OPEN_CLIENTS.add(self)

    def close(self) -> None:
        with _CLIENTS_LOCK:
            _OPEN_CLIENTS.discard(self)
        self._client.close()

    def capabilities(self, model: str) -> Capabilities:
        """What this endpoint is known to accept for `model` (a copy): remembered from an
        earlier run or learnt by this client; a fresh record when never seen."""
        with self._caps_lock:
            return self._known(model).copy()

    def _known(self, model: str) -> Capabilities:
        known = self._caps.get(model)
        if known is None:
            known = self._memory.recall(self._endpoint, model) or Capabilities()
            self._caps[model] = known
        return known

    def _learn(
        self,
        model: str,
        fmt: ResponseFormat | None,
        token_param: TokenParam,
        usage: bool,
        rejected: list[str],
    ) -> None:
        """Keep what worked (`fmt` None: the call said nothing about schemas) and what was
        rejected; tell the memory only when something changed."""
        with self._caps_lock:
            known = self._known(model)
            before = known.copy()
            known.rejected.extend(r for r in dict.fromkeys(rejected) if r not in known.rejected)
            if fmt is not None:
                known.response_format = fmt
            known.token_param = token_param
            known.usage = usage
            changed = known != before
            snapshot = known.copy()
        if changed:
            self._memory.remember(self._endpoint, model, snapshot)

    def models(self) -> list[str]:
        """The model ids the endpoint lists (``GET /models``)."""
        import openai

        try:
            return [item.id for item in self._client.models.list()]
        except openai.OpenAIError as exc:
            raise self._error(f"listing models failed ({type(exc).__name__})") from None

    def complete(
        self,
        messages: list[dict[str, str]],
        model: str,
        stats: CallStats,
        schema: dict[str, Any] | None = None,
        max_tokens: int | None = None,
    ) -> ChatAnswer:
        """One answer for `messages`, retried per the module's policy; counts into `stats`.

        With `schema`, the answer is asked for in that JSON schema where the endpoint
        supports it, else as a JSON object, else as plain text (the caller extracts)."""
        import openai

        caps = self.capabilities(model)
        rejected: list[str] = []
        rate_limited = server_errors = timeouts = 0
        fmt: ResponseFormat = caps.response_format or ("json_schema" if schema is not None else "json_object")
        if schema is None and fmt == "json_schema":
            fmt = "json_object"
        token_param = caps.token_param
        while True:
            if cancelled():
                raise NarrationError("cancelled")
            started = time.monotonic()
            stats.calls += 1
            try:
                response = self._create(messages, model, fmt, token_param, schema, max_tokens)
            except openai.RateLimitError as exc:
                stats.seconds += time.monotonic() - started
                wait = retry_after_seconds(_headers(exc))
                rate_limited += 1
                if rate_limited > RATE_LIMIT_RETRIES:
                    raise self._error("rate limited (HTTP 429) too many times") from None
                if wait is None:
                    wait = BACKOFF_SECONDS[min(rate_limited - 1, len(BACKOFF_SECONDS) - 1)]
                if wait > MAX_RATE_LIMIT_WAIT:
                    raise self._error(f"rate limited (HTTP 429): Retry-After {wait:.0f}s is too long") from None
                self._sleep(wait)
                continue
            except openai.BadRequestError as exc:
                stats.seconds += time.monotonic() - started
                said = _error_text(exc)
                if token_param == "max_tokens" and "max_completion_tokens" in said:
                    token_param = "max_completion_tokens"
                    continue
                if fmt != "none":  # the server does not know this response_format: step down
                    rejected.append(f"response_format {fmt}")
                    fmt = FORMAT_STEPS[FORMAT_STEPS.index(fmt) + 1]
                    continue
                raise self._error("the endpoint rejected the request (HTTP 400)") from None
            except openai.APIStatusError as exc:
                stats.seconds += time.monotonic() - started
                status = exc.status_code
                if status in RETRIED_STATUSES and server_errors < SERVER_ERROR_RETRIES:
                    wait = retry_after_seconds(_headers(exc))
                    if wait is None or wait > MAX_RATE_LIMIT_WAIT:
                        wait = BACKOFF_SECONDS[server_errors]
                    server_errors += 1
                    self._sleep(wait)
                    continue
                raise self._error(f"the endpoint answered HTTP {status}") from None
            except openai.APITimeoutError:
                stats.seconds += time.monotonic() - started
                if timeouts < TIMEOUT_RETRIES:
                    timeouts += 1
                    continue
                raise self._error(f"no answer within {self._config.timeout:g}s") from None
            except openai.APIConnectionError:
                stats.seconds += time.monotonic() - started
                if timeouts < TIMEOUT_RETRIES:
                    timeouts += 1
                    self._sleep(BACKOFF_SECONDS[0])
                    continue
                raise self._error("cannot connect to the endpoint") from None
            except openai.OpenAIError as exc:
                stats.seconds += time.monotonic() - started
                if cancelled():
                    raise NarrationError("cancelled") from None
                raise self._error(f"the call failed ({type(exc).__name__})") from None
            except Exception:
                # A client closed under a call (Ctrl-C) fails with whatever httpx raises.
                if cancelled():
                    raise NarrationError("cancelled") from None
                raise
            stats.seconds += time.monotonic() - started
            answer = _answer(response)
            # Remember what worked: the next call (and the next run) asks for it first.
            self._learn(model, fmt if schema is not None else None, token_param, answer.tokens_in is not None, rejected)
            return answer

    def _create(
        self,
        messages: list[dict[str, str]],
        model: str,
        fmt: ResponseFormat,
        token_param: TokenParam,
        schema: dict[str, Any] | None,
        max_tokens: int | None,
    ) -> Any:
        limit = (
            self._config.max_output_tokens if max_tokens is None else min(max_tokens, self._config.max_output_tokens)
        )
        extra: dict[str, Any] = {token_param: limit}
        if fmt == "json_schema" and schema is not None:
            extra["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "narrative", "strict": True, "schema": schema},
            }
        elif fmt == "json_object":
            extra["response_format"] = {"type": "json_object"}
        return self._client.chat.completions.create(
            model=model,
            messages=messages,  # type: ignore[arg-type]
            temperature=0.2,
            **extra,
        )

    def _error(self, message: str) -> NarrationError:
        text = f"LLM call to model {self._config.model!r} failed: {message}"
        key = self._config.api_key
        return NarrationError(text.replace(key, "***") if key else text)


def _error_text(exc: Any) -> str:
    """The error body of a 4xx, for matching parameter names only (never shown)."""
    body = getattr(exc, "body", None)
    text = str(body) if body is not None else ""
    return (text + " " + str(getattr(exc, "message", ""))).lower()


def _answer(response: Any) -> ChatAnswer:
    choices = getattr(response, "choices", None) or []
    message = getattr(choices[0], "message", None) if choices else None
    content = getattr(message, "content", None) or ""
    usage = getattr(response, "usage", None)
    tokens_in = getattr(usage, "prompt_tokens", None) if usage is not None else None
    tokens_out = getattr(usage, "completion_tokens", None) if usage is not None else None
    return ChatAnswer(
        content=content if isinstance(content, str) else "",
        tokens_in=tokens_in if isinstance(tokens_in, int) else None,
        tokens_out=tokens_out if isinstance(tokens_out, int) else None,
    )


def _headers(exc: Any) -> Any:
    response = getattr(exc, "response", None)
    return getattr(response, "headers", {}) if response is not None else {}


def retry_after_seconds(headers: Any) -> float | None:
    """Seconds to wait per ``retry-after-ms`` / ``Retry-After`` (seconds or HTTP date)."""
    try:
        millis = headers.get("retry-after-ms")
        if millis is not None:
            return max(float(millis) / 1000.0, 0.0)
        value = headers.get("retry-after")
    except (AttributeError, TypeError, ValueError):
        return None
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return max(when.timestamp() - time.time(), 0.0)
