"""The `IssueSource` a command hands the LLM narration: GitHub's issues, asked once each and
kept in the store's response cache (`sources.github.issues`). Making one sends nothing; the
narration asks only for the issues a GitHub PR fixes or names, never for a git history's."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from prdigest.config import GitHubConfig
from prdigest.sources.github.client import GitHubClient
from prdigest.sources.github.config import Credentials
from prdigest.sources.github.issues import GitHubIssues
from prdigest.store.http_cache import HttpCache
from prdigest.store.store import Store

# An issue is context, not the report: a rate limit is not waited out for long.
MAX_WAIT_SECONDS = 60.0


@contextmanager
def github_issues(store: Store, github: GitHubConfig, *, max_requests: int = 20) -> Iterator[GitHubIssues]:
    credentials = Credentials(github.token, "settings") if github.token else Credentials()
    cache = HttpCache(store)
    with GitHubClient(github.api_url, credentials, cache=cache, max_wait=MAX_WAIT_SECONDS) as client:
        yield GitHubIssues(client, cache, max_requests=max_requests)
