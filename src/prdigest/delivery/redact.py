"""Messages about a delivery that cannot leak its secrets: a webhook URL's path and query are
its token (Slack, Discord, Teams), and an SMTP server may echo what it was sent."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit


def redact_url(url: str) -> str:
    """``https://hooks.example.com/…``: the scheme and host only (a port kept, credentials dropped)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "(a malformed URL)"
    if not parts.scheme or not host:
        return "(a malformed URL)"
    hidden = "/…" if (parts.path not in ("", "/") or parts.query or parts.fragment) else ""
    return f"{parts.scheme}://{host}{port}{hidden}"


def redact(text: str, secrets: Iterable[str | None]) -> str:
    """``text`` with every non-empty secret replaced (longest first, so none is left in part)."""
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        text = text.replace(secret, "…")
    return text
