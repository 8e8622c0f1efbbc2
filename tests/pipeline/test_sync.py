"""The sync use case: what a source yields is written, and its resume state saved only after."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.errors import SourceError
from prdigest.models.pullrequest import PullRequest
from prdigest.pipeline.sync import SyncStats, stored_lookup, sync_source
from prdigest.sources.git import GitSource, GitSyncOptions
from prdigest.sources.github.bundle_source import BundleSource
from prdigest.sources.protocol import Source, StoredLookup, SyncState
from prdigest.store import Store
from prdigest.store.search_store import reindex, search
from prdigest.store.testing import engine_of

REPO = "example-org/widgets"
BUNDLES = Path(__file__).parents[1] / "e2e_github" / "fixtures" / "bundles"


@pytest.fixture
def repo(tmp_path: Path) -> GitRepoBuilder:
    built = GitRepoBuilder(tmp_path / "repo")
    built.commit({"README.md": "# widgets\n"}, "Initial commit")
    built.squash_pr(1, "Add the parser", {"parser.py": "def parse(text):\n    return text\n"})
    built.squash_pr(2, "Fix the parser", {"parser.py": "def parse(text):\n    return text.strip()\n"})
    return built


def _git(repo: GitRepoBuilder, **options: object) -> GitSource:
    return GitSource(repo.path, GitSyncOptions(repository=REPO, **options))  # type: ignore[arg-type]


def test_git_sync_writes_the_records_and_resumes_from_the_saved_tip(repo: GitRepoBuilder, store: Store) -> None:
    first = sync_source(store, _git(repo))
    assert (first.inserted, first.total, first.state_saved) == (2, 2, True)
    assert store.get_sync_state(REPO, "git")["tip"] == repo.git("rev-parse", "HEAD").strip()

    assert sync_source(store, _git(repo)).total == 0  # nothing new since the saved tip

    repo.squash_pr(3, "Document the parser", {"README.md": "# widgets\n\nParses.\n"})
    again = sync_source(store, _git(repo))
    assert (again.inserted, again.total) == (1, 1)
    assert sorted(pr.number for pr in store.iter_prs(repository=REPO)) == [1, 2, 3]


def test_fresh_sync_reads_everything_again(repo: GitRepoBuilder, store: Store) -> None:
    sync_source(store, _git(repo))
    fresh = sync_source(store, _git(repo), fresh=True)
    assert (fresh.inserted, fresh.unchanged) == (0, 2)


def test_a_partial_sync_keeps_the_saved_state(repo: GitRepoBuilder, store: Store) -> None:
    limited = sync_source(store, _git(repo, limit=1))
    assert (limited.inserted, limited.state_saved) == (1, False)
    assert store.get_sync_state(REPO, "git") == {}


def test_on_record_reports_each_outcome(repo: GitRepoBuilder, store: Store) -> None:
    seen: list[tuple[int, str]] = []
    sync_source(store, _git(repo), on_record=lambda pr, outcome: seen.append((pr.number, outcome)))
    assert sorted(seen) == [(1, "inserted"), (2, "inserted")]


def test_bundles_are_written_and_keep_no_state(store: Store) -> None:
    paths = sorted(BUNDLES.glob("*.json"))
    source = BundleSource(paths)
    stats = sync_source(store, source)
    assert (stats.inserted, stats.state_saved) == (len(paths), False)
    assert sync_source(store, BundleSource(paths)).unchanged == len(paths)


class _FailingSource:
    """A source whose reading fails after two records: a network source losing its connection."""

    name = "flaky"
    repository = REPO
    commit_each = True

    def __init__(self, records: list[PullRequest]) -> None:
        self.records = records
        self.state_seen: SyncState | None = None
        self.stored_seen: list[bool] = []

    def pull_requests(self, state: SyncState, stored: StoredLookup) -> Iterator[PullRequest]:
        self.state_seen = state
        for record in self.records:
            self.stored_seen.append(stored(record.repository, record.number) is not None)
            yield record
        raise SourceError("connection lost")

    def resume_state(self) -> SyncState | None:
        return {"cursor": "never saved"}


def test_a_source_committing_each_record_keeps_them_when_it_fails(repo: GitRepoBuilder, store: Store) -> None:
    sync_source(store, _git(repo))
    records = [pr.model_copy(update={"title": f"{pr.title} (edited)"}) for pr in store.iter_prs(repository=REPO)]
    source: Source = _FailingSource(records)  # the protocol is structural: no base class
    stats = SyncStats()
    with pytest.raises(SourceError, match="connection lost"):
        sync_source(store, source, stats=stats)
    assert isinstance(source, _FailingSource)
    assert source.state_seen == {}
    assert source.stored_seen == [True, True]  # the source could see what was stored
    assert (stats.updated, stats.state_saved) == (2, False)
    assert all(pr.title.endswith("(edited)") for pr in store.iter_prs(repository=REPO))
    assert store.get_sync_state(REPO, "flaky") == {}


def test_stored_lookup_answers_none_for_an_unknown_pr(repo: GitRepoBuilder, store: Store) -> None:
    sync_source(store, _git(repo))
    lookup = stored_lookup(store)
    found = lookup(REPO, 2)
    assert found is not None
    assert found.title == "Fix the parser"
    assert lookup(REPO, 99) is None


def _search_rows(store: Store) -> list[tuple[object, ...]]:
    with engine_of(store).connect() as connection:
        return [tuple(row) for row in connection.execute(text("SELECT rowid, * FROM pr_search ORDER BY rowid"))]


def test_rows_indexed_with_their_write_match_a_rebuild_from_the_stored_records(
    repo: GitRepoBuilder, store: Store
) -> None:
    # The sync indexes the records it has in hand; a rebuild reads and parses the stored JSON.
    sync_source(store, _git(repo))
    written = _search_rows(store)
    assert sorted(row[0] for row in written) == sorted([store.pr_id(REPO, 1), store.pr_id(REPO, 2)])
    with engine_of(store).begin() as connection:
        connection.execute(text("DELETE FROM pr_search"))
    assert reindex(store, REPO).indexed == 2
    assert _search_rows(store) == written


def test_a_sync_catches_up_rows_left_out_of_search_and_skips_those_it_wrote(repo: GitRepoBuilder, store: Store) -> None:
    sync_source(store, _git(repo))
    with engine_of(store).begin() as connection:  # as an older version killed mid-write left it
        connection.execute(text("DELETE FROM pr_search WHERE rowid = :id"), {"id": store.pr_id(REPO, 1)})
    assert [hit.number for hit in search(store, "parser")] == [2]
    repo.squash_pr(3, "Document the parser", {"README.md": "# widgets\n\nParses.\n"})
    assert sync_source(store, _git(repo)).inserted == 1
    assert sorted(hit.number for hit in search(store, "parser")) == [1, 2, 3]
    stats = reindex(store, REPO)
    assert (stats.indexed, stats.current) == (0, 3)
