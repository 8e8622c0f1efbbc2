"""Content negotiation: does this request want the JSON twin of a page?

A page answers JSON when its URL ends in ``.json`` (a separate route) or when the
``Accept`` header prefers ``application/json`` to ``text/html``. Every response whose handler
asked (`wants_json`) says ``Vary: Accept``, so no cache hands the HTML to a JSON client or the
other way round; `VaryAcceptMiddleware` adds the header, whatever route or error handler asked.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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


# A scope key holding a mutable marker: copies of the scope ({**scope, ...}) share it.
_ASKED = "prdigest.accept_asked"


def wants_json(request: Request) -> bool:
    """Whether to answer JSON; the response is marked to vary on Accept."""
    asked = request.scope.get(_ASKED)
    if isinstance(asked, list):
        asked.append(True)
    return prefers_json(request.headers.get("accept"))


class VaryAcceptMiddleware:
    """Adds ``Vary: Accept`` to responses whose handler called `wants_json` (pure ASGI)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        asked: list[bool] = []

        async def send_with_vary(message: Message) -> None:
            if message["type"] == "http.response.start" and asked:
                headers = MutableHeaders(scope=message)
                if "accept" not in {part.strip().lower() for part in headers.get("vary", "").split(",")}:
                    headers.add_vary_header("Accept")
            await send(message)

        await self.app({**scope, _ASKED: asked}, receive, send_with_vary)
