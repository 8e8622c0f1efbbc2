"""Response headers that make injected markup inert, and the read-only method guard."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)
READ_METHODS = frozenset({"GET", "HEAD"})


class SecurityHeadersMiddleware:
    """Adds the CSP and friends to every response; answers 405 to anything but GET/HEAD.

    A pure ASGI middleware (not BaseHTTPMiddleware) so it costs next to nothing per request.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _value in message.get("headers", [])}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        if scope["method"] not in READ_METHODS:
            await _method_not_allowed(send_with_headers)
            return
        if scope["method"] == "HEAD":
            # Routes are declared for GET; HEAD runs them and sends the headers only.
            async def send_head(message: Message) -> None:
                if message["type"] == "http.response.body":
                    message = {**message, "body": b""}
                await send_with_headers(message)

            await self.app({**scope, "method": "GET"}, receive, send_head)
            return
        await self.app(scope, receive, send_with_headers)


async def _method_not_allowed(send: Send) -> None:
    body = b'{"error":"method_not_allowed","detail":"this server is read-only: GET and HEAD only"}'
    await send(
        {
            "type": "http.response.start",
            "status": 405,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"allow", b"GET, HEAD"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
