"""A chat-completions call to any OpenAI-compatible endpoint, with our own retry policy.

The `openai` SDK is imported when a client is made, not when this module is imported, so
the CLI starts fast. The SDK's retries are off (``max_retries=0``); instead:

* 429: wait for ``Retry-After`` (seconds or an HTTP date; ``retry-after-ms`` too) when the
  wait is at most `MAX_RATE_LIMIT_WAIT`, up to `RATE_LIMIT_RETRIES` times;
* 500 / 502 / 503 / 504: retry `SERVER_ERROR_RETRIES` times with a growing back-off;
* timeouts and connection errors: retry once;
* 400 while asking for ``response_format``: retry once without it (not every server has it);
* anything else: fail at once.

A failure raises `NarrationError` with a message that names the kind of failure only:
never the API key, the request or the server's text.
"""

from __future__ import annotations

import email.utils
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from prdigest.config import LLMConfig
from prdigest.errors import NarrationError

if TYPE_CHECKING:
    from openai import OpenAI

MAX_RATE_LIMIT_WAIT = 60.0
RATE_LIMIT_RETRIES = 3
SERVER_ERROR_RETRIES = 2
TIMEOUT_RETRIES = 1
BACKOFF_SECONDS = (1.0, 3.0, 6.0)
RETRIED_STATUSES = frozenset({500, 502, 503, 504})
DUMMY_API_KEY = "not-needed"  # local servers want some key; they ignore its value


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
    def __init__(self, config: LLMConfig, *, sleep: Callable[[float], None] = time.sleep) -> None:
        from openai import OpenAI  # heavy: imported only when an LLM is really used

        self._config = config
        self._sleep = sleep
        self._client: OpenAI = OpenAI(
            base_url=config.base_url,
            api_key=config.api_key or DUMMY_API_KEY,
            timeout=config.timeout,
            max_retries=0,
        )

    def close(self) -> None:
        self._client.close()

    def complete(self, messages: list[dict[str, str]], model: str, stats: CallStats) -> ChatAnswer:
        """One answer for `messages`, retried per the module's policy; counts into `stats`."""
        import openai

        rate_limited = server_errors = timeouts = 0
        json_mode = True
        while True:
            started = time.monotonic()
            stats.calls += 1
            try:
                response = self._create(messages, model, json_mode)
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
            except openai.BadRequestError:
                stats.seconds += time.monotonic() - started
                if json_mode:  # maybe the server does not know response_format
                    json_mode = False
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
                raise self._error(f"the call failed ({type(exc).__name__})") from None
            stats.seconds += time.monotonic() - started
            return _answer(response)

    def _create(self, messages: list[dict[str, str]], model: str, json_mode: bool) -> Any:
        extra: dict[str, Any] = {"response_format": {"type": "json_object"}} if json_mode else {}
        return self._client.chat.completions.create(
            model=model,
            messages=messages,  # type: ignore[arg-type]
            max_tokens=self._config.max_output_tokens,
            temperature=0.2,
            **extra,
        )

    def _error(self, message: str) -> NarrationError:
        text = f"LLM call to model {self._config.model!r} failed: {message}"
        key = self._config.api_key
        return NarrationError(text.replace(key, "***") if key else text)


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
