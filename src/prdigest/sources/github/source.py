"""One repository's pull requests from the GitHub API, as a `prdigest.sources.protocol.Source`.

Resumable by construction: the pipeline commits each PR as soon as it is yielded
(``commit_each``), and the ``updated_at`` high-water mark it saves (``resume_state``) only
moves after a run has listed every PR down to the old mark. An interrupted run therefore
leaves the old mark; the next run lists from the top again, and PRs whose stored record is
already current cost no request beyond the listing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from prdigest.models.pullrequest import PullRequest
from prdigest.sources.github import graphql, rest
from prdigest.sources.github.bundle import write_bundle
from prdigest.sources.github.bundle_models import FORMAT_VERSION, Bundle
from prdigest.sources.github.client import GitHubClient
from prdigest.sources.github.graphql_to_bundle import bundle_from_graphql, validate_document
from prdigest.sources.github.normalize import normalize_bundle
from prdigest.sources.protocol import StoredLookup, SyncState, nothing_stored

SOURCE = "github"
STATE_FILTERS = ("merged", "open", "closed", "all")


@dataclass(frozen=True)
class SyncOptions:
    repository: str
    state: str = "merged"
    since: datetime | None = None
    limit: int | None = None
    save_raw: Path | None = None
    contents: bool = True
    page_size: int = 25


@dataclass
class FetchCounts:
    """Filled as the listing goes, so a caller still has the counts after an exception."""

    fetched: int = 0  # PRs whose details were requested (and yielded)
    current: int = 0  # listed PRs whose stored record was already up to date
    bundles: list[Path] = field(default_factory=list)
    complete: bool = False
    high_water: str | None = None


@dataclass(frozen=True)
class _Listed:
    number: int
    updated_at: datetime
    head_sha: str | None
    fetch: Callable[[], Bundle]


EventCallback = Callable[[str, int], None]


def parse_time(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def effective_high_water(state: dict[str, Any], state_filter: str) -> datetime | None:
    """The mark of this filter, or of ``all`` (which covers every filter), whichever is later."""
    marks = state.get("high_water") if isinstance(state.get("high_water"), dict) else {}
    assert isinstance(marks, dict)
    found = [parse_time(marks.get(state_filter)), parse_time(marks.get("all"))]
    present = [t for t in found if t is not None]
    return max(present) if present else None


class GitHubSource:
    """``GitHubSource(client, SyncOptions("owner/name"))``: PRs newest first, fetched in full
    only when the stored record is not current; ``counts`` tells what the run did."""

    name = SOURCE
    commit_each = True  # each PR costs requests: keep every one fetched if the run stops

    def __init__(self, client: GitHubClient, options: SyncOptions, on_event: EventCallback | None = None) -> None:
        self.client = client
        self.options = options
        self.on_event = on_event
        self.counts = FetchCounts()
        self._state: SyncState = {}
        self._run_top: datetime | None = None

    @property
    def repository(self) -> str:
        return self.options.repository

    def pull_requests(self, state: SyncState, stored: StoredLookup = nothing_stored) -> Iterator[PullRequest]:
        self._state = dict(state)
        return self._pull_requests(stored)

    def _pull_requests(self, stored: StoredLookup) -> Iterator[PullRequest]:
        options, counts, client = self.options, self.counts, self.client
        marks = [t for t in (effective_high_water(self._state, options.state), options.since) if t is not None]
        lower = max(marks) if marks else None
        listing = _graphql_listing(client, options) if client.authenticated else _rest_listing(client, options)
        for listed in listing:
            if lower is not None and listed.updated_at < lower:
                counts.complete = True  # newest first: everything after this is older still
                break
            if options.limit is not None and counts.fetched >= options.limit:
                break
            self._run_top = listed.updated_at if self._run_top is None else max(self._run_top, listed.updated_at)
            if _is_current(stored(options.repository, listed.number), listed):
                counts.current += 1
                if self.on_event is not None:
                    self.on_event("current", listed.number)
                continue
            bundle = listed.fetch()
            yield normalize_bundle(bundle)
            counts.fetched += 1
            if options.save_raw is not None:
                counts.bundles.append(write_bundle(options.save_raw, options.repository, bundle))
            if self.on_event is not None:
                self.on_event("fetched", listed.number)
        else:
            counts.complete = True

    def resume_state(self) -> SyncState | None:
        """The moved high-water mark, once the listing reached the old one; else None."""
        if not self.counts.complete:
            return None
        options, state = self.options, self._state
        marks = dict(state.get("high_water") or {}) if isinstance(state.get("high_water"), dict) else {}
        previous = parse_time(marks.get(options.state))
        # With --since the run did not look below it: only a run that reached the old mark may move it.
        reached_old_mark = options.since is None or (previous is not None and options.since <= previous)
        if self._run_top is None or not reached_old_mark:
            self.counts.high_water = marks.get(options.state)
            return None
        top = max(self._run_top, previous) if previous is not None else self._run_top
        marks[options.state] = _stamp(top)
        newest = max(t for t in (parse_time(v) for v in marks.values()) if t is not None)
        self.counts.high_water = marks[options.state]
        return {**state, "high_water": marks, "updated_at_high_water": _stamp(newest), "format": 1}


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _is_current(stored: PullRequest | None, listed: _Listed) -> bool:
    if stored is None:
        return False
    return stored.source == SOURCE and stored.updated_at == listed.updated_at and stored.head_sha == listed.head_sha


def _graphql_listing(client: GitHubClient, options: SyncOptions) -> Iterator[_Listed]:
    after: str | None = None
    while True:
        page = graphql.fetch_pull_request_page(client, options.repository, options.state, options.page_size, after)
        for node in page.nodes:
            updated = parse_time(node.get("updatedAt"))
            if updated is None or not isinstance(node.get("number"), int):
                continue
            yield _Listed(node["number"], updated, node.get("headRefOid"), _graphql_fetcher(client, options, node))
        if not page.has_next:
            return
        after = page.end_cursor


def _graphql_fetcher(client: GitHubClient, options: SyncOptions, node: dict[str, Any]) -> Callable[[], Bundle]:
    def fetch() -> Bundle:
        complete = graphql.complete_pull_request(client, node)
        files = rest.fetch_files(client, options.repository, complete["number"], complete.get("changedFiles"))
        contents = (
            rest.fetch_contents(
                client,
                options.repository,
                rest.key_files(files),
                complete.get("baseRefOid"),
                complete.get("headRefOid"),
            )
            if options.contents
            else []
        )
        return bundle_from_graphql(complete, options.repository, files, contents)

    return fetch


def _rest_listing(client: GitHubClient, options: SyncOptions) -> Iterator[_Listed]:
    for item in rest.list_pulls(client, options.repository, options.state):
        updated = parse_time(item.get("updated_at"))
        if updated is None or not isinstance(item.get("number"), int):
            continue
        head = item.get("head") if isinstance(item.get("head"), dict) else {}
        assert isinstance(head, dict)
        yield _Listed(item["number"], updated, head.get("sha"), _rest_fetcher(client, options, item["number"]))


def _rest_fetcher(client: GitHubClient, options: SyncOptions, number: int) -> Callable[[], Bundle]:
    def fetch() -> Bundle:
        document: dict[str, Any] = rest.fetch_rest_document(client, options.repository, number)
        pull = document["pull"]
        files = rest.fetch_files(client, options.repository, number, pull.get("changed_files"))
        contents = (
            rest.fetch_contents(
                client,
                options.repository,
                rest.key_files(files),
                (pull.get("base") or {}).get("sha"),
                (pull.get("head") or {}).get("sha"),
            )
            if options.contents
            else []
        )
        document.update(
            format_version=FORMAT_VERSION, repository=options.repository, source=SOURCE, files=files, contents=contents
        )
        return validate_document(document, f"{options.repository}#{number}")

    return fetch
