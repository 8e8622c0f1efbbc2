"""Issues of a repository by number, for the LLM's linked context: the title and body an
issue's author wrote (its root-cause analysis is often the best account of a fix).

Each issue is asked for once: the answer is kept in the response cache (the store's
``http_cache``) and read back from there on every later narration, with no request. The
requests made go through the client, so they count in its `RequestStats` like every other
GitHub request, and `max_requests` bounds them per run.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any

from prdigest.errors import GitHubError
from prdigest.sources.github.cache import ResponseCache
from prdigest.sources.github.client import GitHubClient

ISSUE_KIND = "issue"  # the request kind in `RequestStats.by_kind`


@dataclass(frozen=True)
class IssueText:
    repository: str
    number: int
    title: str
    body: str
    is_pull_request: bool = False


@dataclass(frozen=True)
class IssueAnswer:
    issue: IssueText | None
    why_not: str = ""  # when there is no issue: what happened, for the prompt's omitted list


class GitHubIssues:
    def __init__(self, client: GitHubClient, cache: ResponseCache, *, max_requests: int = 20) -> None:
        self._client = client
        self._cache = cache
        self._max_requests = max_requests
        self._asked = 0
        self._lock = threading.Lock()
        self._failed: dict[str, IssueAnswer] = {}  # asked this run and not got: not asked again

    def issue(self, repository: str, number: int) -> IssueAnswer:
        url = f"{self._client.api_url}/repos/{repository}/issues/{number}"
        # One at a time: the narrations of one PR (languages, lengths) run at once and
        # must not each ask for the same issue.
        with self._lock:
            cached = self._cache.get(url)
            if cached is not None:
                self._client.stats.served_from_cache += 1
                return _answer(repository, number, json.loads(cached.body))
            if url in self._failed:
                return self._failed[url]
            if self._asked >= self._max_requests:
                return IssueAnswer(
                    None, f"not fetched: this run's budget of {self._max_requests} issue requests is spent"
                )
            self._asked += 1
            try:
                page = self._client.rest_get(url, kind=ISSUE_KIND)
            except GitHubError as exc:  # secret-free: the client scrubs its messages
                self._failed[url] = IssueAnswer(None, f"not fetched: {exc}")
                return self._failed[url]
            if page is None:
                self._failed[url] = IssueAnswer(None, "not found on GitHub")
                return self._failed[url]
            # Kept whatever the validators: an issue's text is read for context, not kept current.
            self._cache.put(url, json.dumps(page.data), etag=None, last_modified=None)
            return _answer(repository, number, page.data)


def _answer(repository: str, number: int, data: Any) -> IssueAnswer:
    if not isinstance(data, dict):
        return IssueAnswer(None, "GitHub answered something that is not an issue")
    return IssueAnswer(
        IssueText(
            repository=repository,
            number=number,
            title=str(data.get("title") or ""),
            body=str(data.get("body") or ""),
            is_pull_request="pull_request" in data,
        )
    )
