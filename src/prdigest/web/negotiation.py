"""Content negotiation: does this request want the JSON twin of a page?

A page answers JSON when its URL ends in ``.json`` (a separate route) or when the
``Accept`` header prefers ``application/json`` to ``text/html``.
"""

from __future__ import annotations

from starlette.requests import Request

_MAX_ACCEPT_LENGTH = 2000


def parse_accept(header: str) -> dict[str, float]:
    """Media type → quality from an Accept header; malformed parts are skipped, never fatal."""
    qualities: dict[str, float] = {}
    for part in header[:_MAX_ACCEPT_LENGTH].split(","):
        media, *params = (piece.strip() for piece in part.split(";"))
        media = media.lower()
        if "/" not in media:
            continue
        quality = 1.0
        for param in params:
            key, _sep, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value.strip())
                except ValueError:
                    quality = 0.0
                if not 0.0 <= quality <= 1.0:  # also rejects nan
                    quality = 0.0
        qualities[media] = max(quality, qualities.get(media, 0.0))
    return qualities


def prefers_json(header: str | None) -> bool:
    """True when ``application/json`` is acceptable and ranks above ``text/html``."""
    if not header:
        return False
    qualities = parse_accept(header)
    json_q = qualities.get("application/json", 0.0)
    html_q = max(qualities.get("text/html", 0.0), qualities.get("application/xhtml+xml", 0.0))
    return json_q > 0.0 and json_q > html_q


def wants_json(request: Request) -> bool:
    return prefers_json(request.headers.get("accept"))
