"""Known versions from a JSON file and from a PyPI-style JSON API served locally."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from prdigest.analyzers.dependencies.known_versions import fetch_known_versions, load_known_versions_file
from prdigest.errors import ConfigError, SourceError

RELEASES = {
    "cupy-cuda13x": {"releases": {"14.0.1": [], "14.1.0": [], "14.1.1": [], "not a version": []}},
    "broken": "no releases here",
    "empty": {"info": {}},
}


class _Index(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        parts = self.path.strip("/").split("/")
        if len(parts) == 3 and parts[0] == "pypi" and parts[2] == "json":
            if parts[1] == "boom":
                self.send_response(500)
                self.end_headers()
                return
            if parts[1] in RELEASES:
                body = json.dumps(RELEASES[parts[1]]).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
        self.send_response(404)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def index_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Index)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/pypi"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_fetch_releases_from_local_index(index_url: str) -> None:
    found = fetch_known_versions(index_url, ["CuPy_Cuda13x", "no-such-package"])
    assert found == {"cupy-cuda13x": ["14.0.1", "14.1.0", "14.1.1"]}


def test_index_errors_are_source_errors_without_credentials(index_url: str) -> None:
    secret_url = index_url.replace("http://", "http://user:hunter2@")
    with pytest.raises(SourceError, match="HTTP 500") as caught:
        fetch_known_versions(secret_url, ["boom"])
    assert "hunter2" not in str(caught.value)
    with pytest.raises(SourceError, match="no JSON object"):
        fetch_known_versions(index_url, ["broken"])
    with pytest.raises(SourceError, match="no 'releases' object"):
        fetch_known_versions(index_url, ["empty"])
    with pytest.raises(SourceError, match="failed"):
        fetch_known_versions("http://127.0.0.1:9", ["cupy"], timeout=2)


def test_load_known_versions_file(tmp_path: Path) -> None:
    path = tmp_path / "versions.json"
    path.write_text(json.dumps({"CuPy-Cuda13x": ["14.1.1", "14.0.1", "bogus"]}))
    assert load_known_versions_file(path) == {"cupy-cuda13x": ["14.0.1", "14.1.1"]}


@pytest.mark.parametrize(
    ("content", "message"),
    [("{not json", "not valid JSON"), ("[1, 2]", "must be an object"), ('{"a": "1.0"}', "must be a list")],
)
def test_bad_known_versions_file(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "versions.json"
    path.write_text(content)
    with pytest.raises(ConfigError, match=message) as caught:
        load_known_versions_file(path)
    assert str(path) in str(caught.value)


def test_missing_known_versions_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_known_versions_file(tmp_path / "absent.json")
