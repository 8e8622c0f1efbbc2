"""Syncing from the fake GitHub: records stored, requests counted, incremental re-syncs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from prdigest.errors import RateLimitExceeded
from prdigest.models.pullrequest import FileStatus, PRState
from prdigest.pipeline.sync import SyncStats, sync_source
from prdigest.sources.github.client import GitHubClient
from prdigest.sources.github.source import FetchCounts, GitHubSource, SyncOptions
from prdigest.store import Store

REPO = "acme/widgets"


def _sync_written(client: GitHubClient, store: Store, **kwargs: Any) -> tuple[FetchCounts, SyncStats]:
    """Sync through the pipeline: what the source fetched, and what the store wrote."""
    kwargs.setdefault("page_size", 2)
    source = GitHubSource(client, SyncOptions(REPO, **kwargs))
    written = sync_source(store, source)
    return source.counts, written


def _sync(client: GitHubClient, store: Store, **kwargs: Any) -> FetchCounts:
    return _sync_written(client, store, **kwargs)[0]


def test_first_sync_paginates_everything_and_counts_requests(
    fake: Any, store: Store, make_client: Callable[..., GitHubClient]
) -> None:
    client = make_client()
    result, written = _sync_written(client, store)

    assert (result.fetched, written.inserted, result.complete) == (3, 3, True)
    assert result.high_water == "2024-05-10T12:00:00Z"
    assert [pr.number for pr in store.iter_prs(repository=REPO)] == [12, 11, 10]
    # 2 PR pages (page size 2) + 3 nested follow-ups (threads, thread comments, comments).
    assert fake.count("POST /graphql") == 5
    assert [r.operation for r in fake.log if r.method == "POST"].count("PullRequestPage") == 2
    assert fake.count("GET /repos/acme/widgets/pulls/") == 3  # one files page per PR
    assert fake.count("GET /repos/acme/widgets/contents/") == 3  # core.py base+head, attn.cu head
    assert client.stats.by_kind == {"graphql": 5, "files": 3, "contents": 3}
    assert all(r.authorization == f"Bearer {fake.token}" for r in fake.log)


def test_record_contents_threads_bots_and_truncation(
    fake: Any, store: Store, make_client: Callable[..., GitHubClient]
) -> None:
    _sync(make_client(), store)
    pr = store.get_pr(REPO, 12)
    assert pr.state == PRState.MERGED
    assert pr.author == "alice"
    assert pr.source == "github"
    assert pr.labels == ["performance", "core"]
    assert pr.closing_issues == [7]  # other/repo#99 is another repository's issue
    assert [(r.author, r.state, r.author_is_bot) for r in pr.reviews] == [
        ("copilot-pull-request-reviewer", "COMMENTED", True),
        ("bob", "APPROVED", False),
    ]
    assert [(c.author, c.author_is_bot) for c in pr.comments] == [("github-actions[bot]", True), ("carol", False)]
    assert pr.commits[1].co_authors == ["Bob Builder"]
    first, second = pr.review_threads
    assert (first.resolved, first.outdated, first.line, first.original_line) == (True, False, 12, 10)
    assert [c.in_reply_to for c in first.comments] == [None, "9001"]
    assert first.diff_hunk is not None
    assert first.diff_hunk.startswith("@@ -8,3")
    # The second thread came from a follow-up page, its second comment from another one.
    assert (second.resolved, second.outdated, second.line) == (False, True, None)
    assert [(c.author, c.author_is_bot) for c in second.comments] == [("bob", False), ("review-helper", True)]
    core = pr.files[0]
    assert core.content_before is not None
    assert "for w in WIDGETS" in core.content_before
    assert core.content_after is not None
    assert "lru_cache" in core.content_after
    assert pr.files[1].content_after is None  # markdown is not a key source file

    bot_pr = store.get_pr(REPO, 11)
    assert bot_pr.author == "dependabot"
    assert [(c.author, c.author_is_bot) for c in bot_pr.comments] == [("erin", False), ("dependabot", True)]

    kernel = store.get_pr(REPO, 10)
    by_path = {f.path: f for f in kernel.files}
    assert by_path["kernels/attn.cu"].status == FileStatus.ADDED
    assert by_path["kernels/attn.cu"].content_before is None
    assert by_path["kernels/attn.cu"].content_after is not None
    assert by_path["docs/diagram.png"].binary
    assert not by_path["docs/diagram.png"].truncated
    assert by_path["data/huge.json"].truncated
    assert by_path["data/huge.json"].patch is None
    assert kernel.files_truncated


def test_resync_with_nothing_new_makes_one_request(
    fake: Any, store: Store, make_client: Callable[..., GitHubClient]
) -> None:
    _sync(make_client(), store)
    before = [pr.content_hash() for pr in store.iter_prs()]
    fake.reset_log()
    client = make_client()
    result = _sync(client, store)
    assert len(fake.log) == 1
    assert fake.log[0].operation == "PullRequestPage"
    assert client.stats.requests == 1
    assert (result.fetched, result.current, result.complete) == (0, 1, True)
    assert [pr.content_hash() for pr in store.iter_prs()] == before


def test_resync_fetches_only_the_updated_pr_and_reuses_etags(
    fake: Any, store: Store, make_client: Callable[..., GitHubClient]
) -> None:
    _sync(make_client(), store, contents=False)
    fake.touch(11, "2024-05-11T00:00:00Z", title="Bump requests to 2.32.0 (retitled)")
    fake.reset_log()
    client = make_client()
    result, written = _sync_written(client, store, contents=False)
    assert (result.fetched, written.updated) == (1, 1)
    assert store.get_pr(REPO, 11).title == "Bump requests to 2.32.0 (retitled)"
    # Page 1 now holds 11 and 12 (12 is exactly at the mark, so page 2 is looked at too);
    # 11's comments overflow; its files page answers 304.
    operations = [r.operation for r in fake.log if r.method == "POST"]
    assert operations == ["PullRequestPage", "PullRequest_comments", "PullRequestPage"]
    files = [r for r in fake.log if r.path.endswith("/files")]
    assert [r.status for r in files] == [304]
    assert client.stats.not_modified == 1
    assert store.get_pr(REPO, 11).files[0].path == "requirements.txt"  # the cached body was used
    assert result.high_water == "2024-05-11T00:00:00Z"


def test_state_filter_and_limit(fake: Any, store: Store, make_client: Callable[..., GitHubClient]) -> None:
    result = _sync(make_client(), store, state="open")
    assert [pr.number for pr in store.iter_prs()] == [9]
    assert result.complete
    renamed = store.get_pr(REPO, 9).files[0]
    assert (renamed.previous_path, renamed.content_before) == ("src/widgets/old_parser.py", "import re\n")

    limited = _sync(make_client(), store, state="merged", limit=1)
    assert limited.fetched == 1
    assert not limited.complete
    assert store.get_sync_state(REPO, "github")["high_water"] == {"open": "2024-05-05T10:00:00Z"}
    finished = _sync(make_client(), store, state="merged")
    assert (finished.fetched, finished.current, finished.complete) == (2, 1, True)
    assert store.count_prs(REPO) == 4


def test_more_than_3000_files_are_capped_and_marked(
    fake: Any, store: Store, make_client: Callable[..., GitHubClient]
) -> None:
    fake.add_large_pr(20, 3500)
    client = make_client()
    _sync(client, store, limit=1, contents=False)
    pr = store.get_pr(REPO, 20)
    assert len(pr.files) == 3000
    assert pr.changed_files_count == 3500
    assert pr.files_truncated
    assert fake.count("GET /repos/acme/widgets/pulls/20/files") == 30
    assert client.stats.by_kind["files"] == 30


def test_primary_rate_limit_waits_until_reset(
    fake: Any, store: Store, make_client: Callable[..., GitHubClient], sleeper: Any
) -> None:
    reset = int(sleeper.now) + 120
    fake.add_fault(
        "POST /graphql",
        403,
        headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(reset)},
        body={"message": "API rate limit exceeded for user."},
    )
    waits: list[tuple[float, str]] = []
    client = make_client(on_wait=lambda s, r: waits.append((s, r)))
    result = _sync(client, store)
    assert result.fetched == 3
    assert sleeper.waits == [pytest.approx(121.0)]
    assert waits[0][1] == "primary rate limit"
    assert fake.log[0].status == 403
    assert fake.log[1].status == 200


def test_secondary_rate_limit_honours_retry_after(
    fake: Any, store: Store, make_client: Callable[..., GitHubClient], sleeper: Any
) -> None:
    fake.add_fault(
        "GET /repos/acme/widgets/pulls/12/files",
        429,
        headers={"Retry-After": "7"},
        body={"message": "You have exceeded a secondary rate limit."},
    )
    _sync(make_client(), store)
    assert sleeper.waits == [7.0]
    assert fake.count("GET /repos/acme/widgets/pulls/12/files") == 2
    assert len(store.get_pr(REPO, 12).files) == 2


def test_secondary_rate_limit_message_without_headers(
    fake: Any, store: Store, make_client: Callable[..., GitHubClient], sleeper: Any
) -> None:
    fake.add_fault(
        "GET /repos/acme/widgets/pulls/11/files",
        403,
        body={"message": "You have exceeded a secondary rate limit. Please wait a few minutes."},
    )
    _sync(make_client(), store)
    assert sleeper.waits == [60.0]


def test_502_is_retried_with_backoff(
    fake: Any, store: Store, make_client: Callable[..., GitHubClient], sleeper: Any
) -> None:
    fake.add_fault("GET /repos/acme/widgets/pulls/12/files", 502, body={"message": "Bad Gateway"})
    client = make_client()
    _sync(client, store)
    assert len(sleeper.waits) == 1
    assert 1.0 <= sleeper.waits[0] <= 2.0
    assert [r.status for r in fake.log if r.path.endswith("/12/files")] == [502, 200]
    assert client.stats.retries == 1
    assert len(store.get_pr(REPO, 12).files) == 2


def test_timeout_is_retried(fake: Any, store: Store, make_client: Callable[..., GitHubClient], sleeper: Any) -> None:
    fake.add_fault("GET /repos/acme/widgets/pulls/12/files", None, delay=1.0)
    client = make_client(timeout=0.3)
    _sync(client, store)
    assert len(sleeper.waits) == 1
    assert client.stats.by_kind["files"] == 4  # 12 twice (timeout, success), 11, 10
    assert len(store.get_pr(REPO, 12).files) == 2


def test_max_wait_exceeded_keeps_what_was_synced_and_resumes(
    fake: Any, store: Store, make_client: Callable[..., GitHubClient], sleeper: Any
) -> None:
    # The first page goes through; the second page hits an exhausted primary limit.
    fake.add_fault("POST /graphql", None)  # page 1
    fake.add_fault("POST /graphql", None)  # threads follow-up
    fake.add_fault("POST /graphql", None)  # thread comments follow-up
    fake.add_fault("POST /graphql", None)  # PR 11 comments follow-up
    fake.add_fault(
        "POST /graphql",
        403,
        headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(sleeper.now) + 5000)},
        body={"message": "API rate limit exceeded"},
    )
    source = GitHubSource(make_client(max_wait=60), SyncOptions(REPO, page_size=2))
    written = SyncStats()
    with pytest.raises(RateLimitExceeded, match="--max-wait"):
        sync_source(store, source, stats=written)
    result = source.counts
    assert sleeper.waits == []
    assert (result.fetched, written.inserted) == (2, 2)  # each PR was committed as it came
    assert not result.complete
    assert sorted(pr.number for pr in store.iter_prs()) == [11, 12]
    assert store.get_sync_state(REPO, "github") == {}  # the mark did not move

    fake.reset_log()
    resumed = _sync(make_client(), store)
    assert (resumed.fetched, resumed.current, resumed.complete) == (1, 2, True)
    assert sorted(pr.number for pr in store.iter_prs()) == [10, 11, 12]
    assert fake.count("GET /repos/acme/widgets/pulls/1") == 1  # only PR 10's files were needed


def test_unauthenticated_sync_uses_rest(fake: Any, store: Store, make_client: Callable[..., GitHubClient]) -> None:
    client = make_client(token=None)
    result = _sync(client, store)
    assert result.fetched == 1
    assert fake.count("POST /graphql") == 0
    assert all(r.authorization is None for r in fake.log)
    pr = store.get_pr(REPO, 12)
    assert pr.labels == ["performance", "core"]
    assert pr.state == PRState.MERGED
    assert next((r.author, r.author_is_bot) for r in pr.reviews) == ("copilot-pull-request-reviewer[bot]", True)
    (thread,) = pr.review_threads
    assert thread.resolved is None
    assert [c.id for c in thread.comments] == ["9001", "9002"]
    assert pr.files[0].content_after is not None
    # list + pull + commits + reviews + review comments + issue comments + files + 2 contents
    assert client.stats.requests == 9
