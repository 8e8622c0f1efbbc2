"""Real servers on 127.0.0.1 for the delivery tests: an SMTP server (aiosmtpd) that keeps what
it receives, and an HTTP server that keeps the webhook bodies. The code under test talks to
them as to any server; only their answers are chosen by the test."""

from __future__ import annotations

import json
import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

SMTP_USER = "digest-bot"
SMTP_PASSWORD = "s3cret-Pa55word"
WEBHOOK_PATH = "/services/T0001/B0002/XyZsecretTOKEN42"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Mailbox:
    """What the SMTP server received; ``answer`` is what it says to DATA (250: accepted)."""

    answer: str = "250 Message accepted"
    messages: list[Envelope] = field(default_factory=list)
    attempts: int = 0
    logins: list[str] = field(default_factory=list)

    tls_sessions: int = 0

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.attempts += 1
        if session.ssl is not None:  # the message came over the connection STARTTLS upgraded
            self.tls_sessions += 1
        if self.answer.startswith("250"):
            self.messages.append(envelope)
        return self.answer


def _authenticator(mailbox: Mailbox) -> Any:
    def check(server: SMTP, session: Session, envelope: Envelope, mechanism: str, auth_data: Any) -> AuthResult:
        if not isinstance(auth_data, LoginPassword):
            return AuthResult(success=False, handled=False)
        ok = auth_data.login.decode() == SMTP_USER and auth_data.password.decode() == SMTP_PASSWORD
        if ok:
            mailbox.logins.append(auth_data.login.decode())
        return AuthResult(success=ok, handled=False)

    return check


@contextmanager
def smtp_server(mailbox: Mailbox, tls: ssl.SSLContext | None = None) -> Iterator[int]:
    """An SMTP server with AUTH: with ``tls``, STARTTLS is required before anything else (and
    before AUTH); without, AUTH is offered on the plain connection."""
    port = free_port()
    controller = Controller(
        mailbox,
        hostname="127.0.0.1",
        port=port,
        authenticator=_authenticator(mailbox),
        auth_require_tls=tls is not None,
        tls_context=tls,
        require_starttls=tls is not None,
    )
    controller.start()
    try:
        yield port
    finally:
        controller.stop()


def self_signed(folder: Path) -> tuple[Path, ssl.SSLContext]:
    """A certificate for 127.0.0.1 made with the openssl command: (its PEM file, the server's
    context). A client trusts it when SSL_CERT_FILE names the file."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    request = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"]
    names = ["-addext", "subjectAltName=IP:127.0.0.1"]
    subprocess.run([*request, *names, "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return cert, context


@dataclass
class Hook:
    """What the webhook received; ``status`` is what it answers."""

    status: int = 200
    bodies: list[dict[str, Any]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    attempts: int = 0


@contextmanager
def webhook_server(hook: Hook) -> Iterator[str]:
    """A chat webhook on 127.0.0.1; yields its URL (with a secret-looking path)."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            hook.attempts += 1
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            hook.paths.append(self.path)
            if hook.status == 200:
                hook.bodies.append(json.loads(body))
            self.send_response(hook.status)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            self.wfile.write(b"ok" if hook.status == 200 else b"invalid_token")

        def log_message(self, format: str, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}{WEBHOOK_PATH}"
    finally:
        httpd.shutdown()
        httpd.server_close()
