"""JSON to a chat webhook (httpx): any 2xx is delivered; 429 and 5xx are tried again."""

from __future__ import annotations

import json
from typing import Any

import httpx

from prdigest.config import DigestConfig
from prdigest.delivery.redact import redact, redact_url
from prdigest.delivery.retry import Attempts, with_retries
from prdigest.errors import DeliveryError


class _Refused(Exception):
    def __init__(self, status: int, body: str) -> None:
        super().__init__(f"the webhook answered {status} {body}".strip())
        self.status = status


def _post_once(url: str, body: bytes, timeout: float) -> None:
    response = httpx.post(url, content=body, headers={"Content-Type": "application/json"}, timeout=timeout)
    if not 200 <= response.status_code < 300:
        raise _Refused(response.status_code, " ".join(response.text[:200].split()))


def _retryable(exc: Exception) -> bool:
    if isinstance(exc, _Refused):
        return exc.status == 429 or exc.status >= 500
    return isinstance(exc, httpx.TransportError)


def post_webhook(config: DigestConfig, payload: dict[str, Any]) -> None:
    """POST ``payload`` to ``config.webhook_url``; DeliveryError naming only the URL's host."""
    url = config.webhook_url
    if not url:
        raise DeliveryError("no webhook is configured: set [digest] webhook_url or PRDIGEST_DIGEST_WEBHOOK_URL")
    body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    try:
        with_retries(
            lambda: _post_once(url, body, config.timeout),
            retries=config.retries,
            delay=config.retry_delay,
            retryable=_retryable,
        )
    except Attempts as failed:
        # httpx names the URL in some errors: take its secret parts out of the message.
        parts = [url, *url.split("/")[3:]]
        reason = redact(" ".join(str(failed.last).split()) or type(failed.last).__name__, parts)
        tries = "1 try" if failed.tries == 1 else f"{failed.tries} tries"
        raise DeliveryError(f"the webhook at {redact_url(url)} failed after {tries}: {reason}") from None
