"""Response headers that make injected markup inert, the read-only method guard, and the
guard of the one form that writes (creating a watch): same-origin requests only, each with
the double-submitted CSRF token of the page that showed the form."""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlsplit

from starlette.datastructures import Headers
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
# The only paths that take a POST; everything else stays read-only.
WRITE_PATHS = frozenset({"/watch"})
CSRF_COOKIE = "prdigest_csrf"
CSRF_FIELD = "csrf"


def new_csrf_token() -> str:
    return secrets.token_urlsafe(32)


def csrf_matches(cookie: str | None, submitted: str | None) -> bool:
    """The form's token is the cookie's (another site can set neither: it cannot read our page)."""
    if not cookie or not submitted:
        return False
    return hmac.compare_digest(cookie.encode(), submitted.encode())


def _origin(url: str) -> str | None:
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def same_origin(scope: Scope) -> bool:
    """Whether a request comes from a page of this server: its Origin (else its Referer) is
    this host; a browser that sends neither (or ``Origin: null``) must say
    ``Sec-Fetch-Site: same-origin``, a header no page can set."""
    headers = Headers(scope=scope)
    host = headers.get("host", "").lower()
    if not host:
        return False
    here = f"{scope.get('scheme', 'http')}://{host}"
    origin = headers.get("origin")
    # "null": the browser hides the origin, as it does under our Referrer-Policy: no-referrer.
    if origin is not None and origin != "null":
        return origin.lower() == here
    referer = headers.get("referer")
    if referer is not None:
        return _origin(referer) == here
    return headers.get("sec-fetch-site") == "same-origin"


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

        if scope["method"] == "POST" and scope["path"] in WRITE_PATHS:
            if not same_origin(scope):
                await _forbidden(send_with_headers)
                return
            await self.app(scope, receive, send_with_headers)
            return
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


async def _forbidden(send: Send) -> None:
    body = b'{"error":"forbidden","detail":"a watch is created only from this server\'s own form (same origin)"}'
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
