"""The HTTP client of the GitHub source: auth, base URL, rate limits, retries, conditional GETs.

Every wait (rate-limit reset, Retry-After, backoff) goes through the injected ``sleep`` and is
reported to ``on_wait`` so the CLI can show it; ``max_wait`` bounds their sum. The token lives
only in the request headers built per call and is scrubbed from every message we raise.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from prdigest import __version__
from prdigest.errors import GitHubError, RateLimitExceeded
from prdigest.sources.github.cache import ResponseCache
from prdigest.sources.github.config import Credentials, graphql_url
from prdigest.sources.github.gate import RateGate

_SHA_REF = re.compile(r"[?&]ref=[0-9a-f]{40}(&|$)")


@dataclass
class RequestStats:
    """What the client did; ``by_kind`` splits requests by what they were for."""

    requests: int = 0  # every HTTP request sent, retries included
    not_modified: int = 0  # 304 answers (free under GitHub's rate limit)
    served_from_cache: int = 0  # immutable URLs answered without a request
    retries: int = 0
    waited_seconds: float = 0.0
    by_kind: dict[str, int] = field(default_factory=dict)

    def count(self, kind: str) -> None:
        self.requests += 1
        self.by_kind[kind] = self.by_kind.get(kind, 0) + 1


@dataclass(frozen=True)
class RestPage:
    data: Any
    next_url: str | None


WaitCallback = Callable[[float, str], None]


class GitHubClient:
    """A synchronous GitHub API client; use as a context manager or call `close`."""

    def __init__(
        self,
        api_url: str,
        credentials: Credentials,
        *,
        cache: ResponseCache | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
        max_wait: float | None = None,
        timeout: float = 30.0,
        max_retries: int = 4,
        backoff_base: float = 1.0,
        rng: random.Random | None = None,
        on_wait: WaitCallback | None = None,
        transport: httpx.BaseTransport | None = None,
        gate: RateGate | None = None,
    ) -> None:
        self.api_url = api_url.rstrip("/")
        self.graphql_url = graphql_url(self.api_url)
        self._credentials = credentials
        self._cache = cache
        self._sleep = sleep
        self._clock = clock
        self._max_wait = max_wait
        self._max_retries = max_retries
        self._backoff_base = backoff_base
        self._rng = rng or random.Random()
        self.on_wait = on_wait
        self._gate = gate
        self.stats = RequestStats()
        self._http = httpx.Client(timeout=timeout, follow_redirects=True, transport=transport)

    def __repr__(self) -> str:
        return f"GitHubClient({self.api_url!r}, authenticated={self.authenticated})"

    @property
    def authenticated(self) -> bool:
        return self._credentials.authenticated

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> GitHubClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # --- public calls ----------------------------------------------------------------

    def rest_get(
        self, path_or_url: str, params: Mapping[str, str | int] | None = None, *, kind: str = "rest"
    ) -> RestPage | None:
        """GET a REST resource (conditionally when cached); None on 404."""
        url = self._absolute(path_or_url, params)
        cached = self._cache.get(url) if self._cache is not None else None
        if cached is not None and _SHA_REF.search(url):
            # Contents at a commit SHA never change: no request at all.
            self.stats.served_from_cache += 1
            return RestPage(json.loads(cached.body), None)
        headers = self._headers("application/vnd.github+json")
        if cached is not None:
            if cached.etag:
                headers["If-None-Match"] = cached.etag
            if cached.last_modified:
                headers["If-Modified-Since"] = cached.last_modified
        response = self._send("GET", url, headers=headers, kind=kind)
        next_url = _next_link(response.headers.get("link"))
        if response.status_code == 304 and cached is not None:
            self.stats.not_modified += 1
            return RestPage(json.loads(cached.body), next_url)
        if response.status_code == 404:
            return None
        self._raise_for_status(response, url)
        body = response.text
        data = _json_or_error(body, url)
        etag = response.headers.get("etag")
        last_modified = response.headers.get("last-modified")
        if self._cache is not None and (etag or last_modified):
            self._cache.put(url, body, etag=etag, last_modified=last_modified)
        return RestPage(data, next_url)

    def graphql(self, query: str, variables: Mapping[str, Any], operation_name: str) -> dict[str, Any]:
        """POST a GraphQL query; returns ``data``. Waits and retries on RATE_LIMITED errors."""
        payload = {"query": query, "variables": dict(variables), "operationName": operation_name}
        limited = 0
        while True:
            response = self._send(
                "POST", self.graphql_url, headers=self._headers("application/json"), kind="graphql", json=payload
            )
            self._raise_for_status(response, self.graphql_url)
            body = _json_or_error(response.text, self.graphql_url)
            if not isinstance(body, dict):
                raise GitHubError(f"GitHub GraphQL answered {operation_name} with a non-object")
            errors = body.get("errors") or []
            if any(isinstance(e, dict) and e.get("type") == "RATE_LIMITED" for e in errors):
                limited += 1
                self._wait(self._reset_wait(response, limited), "GraphQL rate limit", rate_limit=True)
                continue
            if errors:
                raise GitHubError(self._scrub(f"GitHub GraphQL {operation_name} failed: {_error_messages(errors)}"))
            data = body.get("data")
            if not isinstance(data, dict):
                raise GitHubError(f"GitHub GraphQL answered {operation_name} without data")
            return data

    # --- transport, retries, waits ---------------------------------------------------

    def _absolute(self, path_or_url: str, params: Mapping[str, str | int] | None) -> str:
        url = path_or_url if "://" in path_or_url else f"{self.api_url}/{path_or_url.lstrip('/')}"
        if params:
            url = str(httpx.URL(url, params={k: str(v) for k, v in params.items()}))
        return url

    def _headers(self, accept: str) -> dict[str, str]:
        headers = {
            "Accept": accept,
            "User-Agent": f"prdigest/{__version__}",
            "X-GitHub-Api-Version": "2022-11-28",
        }
        if self._credentials.token:
            headers["Authorization"] = f"Bearer {self._credentials.token}"
        return headers

    def _send(self, method: str, url: str, *, headers: dict[str, str], kind: str, **kwargs: Any) -> httpx.Response:
        failures = 0
        limited = 0
        while True:
            if self._gate is not None:
                shared = self._gate.paused_for()
                if shared > 0:
                    self._wait(shared, "rate limit shared with other workers", rate_limit=True)
            self.stats.count(kind)
            try:
                response = self._http.request(method, url, headers=headers, **kwargs)
            except httpx.TransportError as exc:  # timeouts, resets, refused connections
                failures += 1
                if failures > self._max_retries:
                    raise GitHubError(
                        self._scrub(f"GitHub request failed after {failures} tries: {type(exc).__name__} on {url}")
                    ) from None
                self._backoff(failures, f"{type(exc).__name__}, retrying")
                continue
            if self._gate is not None:
                self._gate.observe(*_budget(response))
            if response.status_code in (403, 429):
                wait = self._rate_limit_wait(response, limited + 1)
                if wait is not None:
                    limited += 1
                    if self._gate is not None:
                        self._gate.pause(wait[0], wait[1])
                    self._wait(wait[0], wait[1], rate_limit=True)
                    self.stats.retries += 1
                    continue
            if response.status_code >= 500:
                failures += 1
                if failures > self._max_retries:
                    raise GitHubError(f"GitHub answered HTTP {response.status_code} {failures} times on {url}")
                self._backoff(failures, f"HTTP {response.status_code}, retrying")
                continue
            return response

    def _backoff(self, failures: int, reason: str) -> None:
        self.stats.retries += 1
        delay = self._backoff_base * 2 ** (failures - 1)
        self._wait(delay + self._rng.uniform(0, self._backoff_base), reason, rate_limit=False)

    def _rate_limit_wait(self, response: httpx.Response, attempt: int) -> tuple[float, str] | None:
        """How long to wait on a 403/429, or None when it is not a rate limit."""
        retry_after = response.headers.get("retry-after")
        if retry_after is not None:
            try:
                return max(float(retry_after), 0.0), "secondary rate limit (Retry-After)"
            except ValueError:
                pass
        if response.headers.get("x-ratelimit-remaining") == "0":
            return self._reset_wait(response, attempt), "primary rate limit"
        if "secondary rate limit" in response.text.lower():
            # GitHub: wait at least a minute, longer on repeats.
            return 60.0 * 2 ** (attempt - 1), "secondary rate limit"
        return None

    def _reset_wait(self, response: httpx.Response, attempt: int) -> float:
        reset = response.headers.get("x-ratelimit-reset")
        try:
            return max(float(reset) - self._clock(), 0.0) + 1.0 if reset is not None else 60.0 * attempt
        except ValueError:
            return 60.0 * attempt

    def _wait(self, seconds: float, reason: str, *, rate_limit: bool) -> None:
        if self._max_wait is not None and self.stats.waited_seconds + seconds > self._max_wait:
            message = (
                f"GitHub {reason}: waiting {seconds:.0f} s more would exceed --max-wait "
                f"{self._max_wait:.0f} s (already waited {self.stats.waited_seconds:.0f} s); "
                "everything synced so far is kept, re-run later to continue"
            )
            raise RateLimitExceeded(message) if rate_limit else GitHubError(message)
        if self.on_wait is not None:
            self.on_wait(seconds, reason)
        self.stats.waited_seconds += seconds
        self._sleep(seconds)

    def _raise_for_status(self, response: httpx.Response, url: str) -> None:
        status = response.status_code
        if status < 400:
            return
        detail = _message_of(response)
        if status == 401:
            raise GitHubError("GitHub rejected the credentials (HTTP 401); check GITHUB_TOKEN / GH_TOKEN")
        raise GitHubError(self._scrub(f"GitHub answered HTTP {status} on {url}: {detail}"))

    def _scrub(self, text: str) -> str:
        token = self._credentials.token
        return text.replace(token, "***") if token else text


def _budget(response: httpx.Response) -> tuple[int | None, float | None]:
    """The rate-limit headers: requests remaining, and when the window resets (epoch s)."""
    try:
        remaining = int(response.headers["x-ratelimit-remaining"])
    except (KeyError, ValueError):
        remaining = None
    try:
        reset_at = float(response.headers["x-ratelimit-reset"])
    except (KeyError, ValueError):
        reset_at = None
    return remaining, reset_at


def _json_or_error(body: str, url: str) -> Any:
    try:
        return json.loads(body)
    except json.JSONDecodeError as exc:
        raise GitHubError(f"GitHub answered {url} with invalid JSON ({exc.msg})") from None


def _message_of(response: httpx.Response) -> str:
    try:
        data = response.json()
    except ValueError:
        return response.reason_phrase
    if isinstance(data, dict) and isinstance(data.get("message"), str):
        return str(data["message"])[:200]
    return response.reason_phrase


def _error_messages(errors: list[Any]) -> str:
    messages = [str(e.get("message", e))[:200] if isinstance(e, dict) else str(e)[:200] for e in errors[:3]]
    return "; ".join(messages)


def _next_link(header: str | None) -> str | None:
    """The ``rel="next"`` URL of a Link header."""
    if not header:
        return None
    for part in header.split(","):
        section = part.split(";")
        if len(section) < 2:
            continue
        target = section[0].strip()
        if any(s.strip() == 'rel="next"' for s in section[1:]) and target.startswith("<") and target.endswith(">"):
            return target[1:-1]
    return None
