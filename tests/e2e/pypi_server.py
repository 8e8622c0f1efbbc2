"""A tiny PyPI-style JSON API on 127.0.0.1 for ``prdigest analyze --versions URL``.

``GET /pypi/<name>/json`` answers ``{"info": {...}, "releases": {"1.0": [], ...}}`` for the
packages it was given and 404 otherwise, as pypi.org does; every request path is recorded.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class PypiIndex:
    base_url: str  # e.g. http://127.0.0.1:PORT/pypi
    requests: list[str] = field(default_factory=list)


@contextmanager
def serve_pypi(releases: Mapping[str, Sequence[str]]) -> Iterator[PypiIndex]:
    """Serve ``releases`` ({package: [versions]}) until the block ends."""
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.path)
            parts = self.path.strip("/").split("/")
            if len(parts) == 3 and parts[0] == "pypi" and parts[2] == "json" and parts[1] in releases:
                body = json.dumps(
                    {"info": {"name": parts[1]}, "releases": {version: [] for version in releases[parts[1]]}}
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
            else:
                body = b'{"message": "Not Found"}'
                self.send_response(404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            return  # keep test output quiet

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield PypiIndex(base_url=f"http://127.0.0.1:{server.server_address[1]}/pypi", requests=seen)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
