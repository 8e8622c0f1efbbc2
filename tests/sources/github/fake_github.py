"""A small fake GitHub API on 127.0.0.1 for the tests: REST + GraphQL from hand-written fixtures.

It answers in GitHub's documented shapes, paginates like GitHub (Link headers, GraphQL cursors),
supports ETag / If-None-Match, caps file lists at 3,000, can inject faults (rate limits, 5xx,
slow answers) and logs every request so tests can count them.
"""

from __future__ import annotations

import base64
import contextlib
import copy
import hashlib
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlencode, urlsplit

FIXTURES = Path(__file__).parent / "fixtures"
REPOSITORY = "acme/widgets"
FILE_CAP = 3000


@dataclass
class Fault:
    """Answer the next ``times`` requests whose "METHOD /path" starts with ``match`` this way.

    ``status=None`` serves the normal answer (after ``delay`` seconds).
    """

    match: str
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None
    delay: float = 0.0
    times: int = 1


@dataclass(frozen=True)
class Logged:
    method: str
    path: str
    query: dict[str, str]
    authorization: str | None
    operation: str | None
    status: int


def _load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


class FakeGitHub:
    def __init__(self, token: str | None = None) -> None:
        self.token = token
        self.pr_nodes: list[dict[str, Any]] = _load("graphql_pull_requests.json")
        self.nested: dict[str, Any] = _load("graphql_nested.json")
        self.files: dict[str, list[dict[str, Any]]] = _load("rest_files.json")
        self.contents: dict[str, str] = _load("rest_contents.json")
        self.rest: dict[str, Any] = _load("rest_pulls.json")
        self.generated_files: dict[int, int] = {}
        self.issues: dict[str, dict[str, Any]] = {}  # GET /repos/{REPOSITORY}/issues/{number}
        self.faults: list[Fault] = []
        self.log: list[Logged] = []
        self._lock = threading.Lock()
        handler = type("Handler", (_Handler,), {"fake": self})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> FakeGitHub:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    # --- test helpers ----------------------------------------------------------------

    def count(self, prefix: str = "") -> int:
        """Requests whose "METHOD /path" starts with ``prefix``."""
        return sum(1 for r in self.log if f"{r.method} {r.path}".startswith(prefix))

    def add_fault(self, match: str, status: int | None = None, **kwargs: Any) -> Fault:
        fault = Fault(match, status, **kwargs)
        with self._lock:
            self.faults.append(fault)
        return fault

    def reset_log(self) -> None:
        with self._lock:
            self.log.clear()

    def add_large_pr(self, number: int, changed_files: int) -> None:
        """A PR whose file list is generated (GitHub lists only the first 3,000)."""
        node = copy.deepcopy(next(n for n in self.pr_nodes if n["number"] == 10))
        node.update(
            id=f"PR_big{number}", number=number, title=f"Vendor {changed_files} files", changedFiles=changed_files
        )
        node["updatedAt"] = "2024-06-01T00:00:00Z"
        self.pr_nodes.append(node)
        self.generated_files[number] = changed_files

    def touch(self, number: int, updated_at: str, **changes: Any) -> None:
        node = next(n for n in self.pr_nodes if n["number"] == number)
        node.update(updatedAt=updated_at, **changes)

    # --- answers ---------------------------------------------------------------------

    def take_fault(self, key: str) -> Fault | None:
        with self._lock:
            for fault in self.faults:
                if key.startswith(fault.match) and fault.times > 0:
                    fault.times -= 1
                    return fault
        return None

    def record(self, entry: Logged) -> None:
        with self._lock:
            self.log.append(entry)

    def graphql(self, payload: dict[str, Any]) -> tuple[int, Any]:
        operation = payload.get("operationName")
        variables = payload.get("variables") or {}
        if operation == "PullRequestPage":
            if f"{variables.get('owner')}/{variables.get('name')}" != REPOSITORY:
                return 200, {"data": {"repository": None}, "errors": [{"type": "NOT_FOUND", "message": "no repo"}]}
            states = set(variables.get("states") or ["OPEN", "CLOSED", "MERGED"])
            nodes = sorted(
                (n for n in self.pr_nodes if n["state"] in states), key=lambda n: n["updatedAt"], reverse=True
            )
            start = int(variables.get("after") or 0)
            first = int(variables["first"])
            page = nodes[start : start + first]
            end = start + len(page)
            listing = {
                "pageInfo": {"hasNextPage": end < len(nodes), "endCursor": str(end)},
                "nodes": copy.deepcopy(page),
            }
            return 200, {"data": {"repository": {"pullRequests": listing}}}
        if isinstance(operation, str) and "_" in operation:
            connection = operation.split("_", 1)[1]
            key = f"{variables.get('id')} {connection} {variables.get('after')}"
            if key in self.nested:
                return 200, {"data": {"node": {connection: copy.deepcopy(self.nested[key])}}}
        return 200, {"data": None, "errors": [{"message": f"fake GitHub cannot answer {operation}"}]}

    def rest_get(self, path: str, query: dict[str, str]) -> tuple[int, Any, dict[str, str]]:
        prefix = f"/repos/{REPOSITORY}/"
        if not path.startswith(prefix):
            return 404, {"message": "Not Found"}, {}
        parts = path[len(prefix) :].split("/")
        per_page = int(query.get("per_page", "30"))
        page = int(query.get("page", "1"))
        if parts[0] == "contents":
            text = self.contents.get(f"{unquote('/'.join(parts[1:]))}@{query.get('ref')}")
            if text is None:
                return 404, {"message": "Not Found"}, {}
            encoded = base64.encodebytes(text.encode()).decode()
            return (
                200,
                {
                    "type": "file",
                    "encoding": "base64",
                    "content": encoded,
                    "path": unquote("/".join(parts[1:])),
                    "sha": hashlib.sha1(text.encode()).hexdigest(),
                    "size": len(text),
                },
                {},
            )
        if parts == ["pulls"]:
            state = query.get("state", "open")
            pulls = [p for p in self.rest["pulls"].values() if state == "all" or p["state"] == state]
            pulls.sort(key=lambda p: p["updated_at"], reverse=True)
            return self._paged(path, query, pulls, per_page, page)
        if parts[0] == "pulls" and len(parts) >= 2:
            number = parts[1]
            if len(parts) == 2:
                pull = self.rest["pulls"].get(number)
                return (200, pull, {}) if pull else (404, {"message": "Not Found"}, {})
            if parts[2] == "files":
                return self._paged(path, query, self._files(int(number)), per_page, page)
            table = {"commits": "commits", "reviews": "reviews", "comments": "review_comments"}.get(parts[2])
            if table:
                return self._paged(path, query, self.rest[table].get(number, []), per_page, page)
        if parts[0] == "issues" and len(parts) == 2:
            issue = self.issues.get(parts[1])
            return (200, issue, {}) if issue else (404, {"message": "Not Found"}, {})
        if parts[0] == "issues" and len(parts) == 3 and parts[2] == "comments":
            return self._paged(path, query, self.rest["issue_comments"].get(parts[1], []), per_page, page)
        return 404, {"message": "Not Found"}, {}

    def _files(self, number: int) -> list[dict[str, Any]]:
        generated = self.generated_files.get(number)
        if generated is None:
            return self.files.get(str(number), [])
        return [
            {
                "sha": f"{i:040x}",
                "filename": f"vendor/lib/file_{i:05d}.py",
                "status": "added",
                "additions": 3,
                "deletions": 0,
                "changes": 3,
                "patch": f"@@ -0,0 +1,3 @@\n+a = {i}\n+b = 2\n+c = 3",
            }
            for i in range(min(generated, FILE_CAP))
        ]

    def _paged(
        self, path: str, query: dict[str, str], items: list[Any], per_page: int, page: int
    ) -> tuple[int, Any, dict[str, str]]:
        start = (page - 1) * per_page
        headers: dict[str, str] = {}
        if start + per_page < len(items):
            following = {**query, "page": str(page + 1), "per_page": str(per_page)}
            headers["Link"] = f'<{self.url}{path}?{urlencode(following)}>; rel="next"'
        return 200, items[start : start + per_page], headers


class _Handler(BaseHTTPRequestHandler):
    fake: FakeGitHub
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def _handle(self, method: str) -> None:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up (timeouts)
            self._answer(method)

    def _answer(self, method: str) -> None:
        fake = self.fake
        split = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(split.query).items()}
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        payload = json.loads(raw) if raw else {}
        operation = payload.get("operationName") if isinstance(payload, dict) else None
        authorization = self.headers.get("Authorization")
        key = f"{method} {split.path}"
        fault = fake.take_fault(key)
        status: int
        body: Any
        headers: dict[str, str] = {}
        if fault is not None and fault.delay:
            time.sleep(fault.delay)
        if fault is not None and fault.status is not None:
            status, body, headers = fault.status, fault.body, dict(fault.headers)
        elif fake.token is not None and authorization not in (None, f"Bearer {fake.token}"):
            status, body = 401, {"message": "Bad credentials"}
        elif method == "POST" and split.path == "/graphql":
            if authorization is None:
                status, body = 401, {"message": "This endpoint requires you to be authenticated."}
            else:
                status, body = fake.graphql(payload)
        elif method == "GET":
            status, body, headers = fake.rest_get(split.path, query)
        else:
            status, body = 404, {"message": "Not Found"}
        encoded = b"" if body is None else json.dumps(body).encode()
        etag = '"' + hashlib.sha1(encoded).hexdigest() + '"'
        if method == "GET" and status == 200:
            headers.setdefault("ETag", etag)
            if self.headers.get("If-None-Match") == etag:
                status, encoded = 304, b""
        headers.setdefault("x-ratelimit-limit", "5000")
        headers.setdefault("x-ratelimit-remaining", "4999")
        headers.setdefault("x-ratelimit-reset", str(int(time.time()) + 3600))
        fake.record(Logged(method, split.path, query, authorization, operation, status))
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(encoded)))
        self.end_headers()
        if encoded:
            self.wfile.write(encoded)
