"""The ledger holds the synced PRs only: a requirement changed in between by a commit that is
no PR is not told as the neighbouring PR's (a report would contradict its own change line)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from tests.helpers.analyzed import analyze_history
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.pipeline.report import report_for
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/gaps"


def _day(day: int) -> datetime:
    return datetime(2024, 3, day, 12, 0, tzinfo=UTC)


def _history(root: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(root)
    repo.commit({"README.md": "# gaps\n", "requirements.txt": "requests>=2.0\n"}, "Initial commit", date=_day(1))
    repo.squash_pr(1, "Raise the requests floor", {"requirements.txt": "requests>=2.10\n"}, date=_day(2))
    # pushed straight to the main line: no PR, so no ledger entry
    repo.commit({"requirements.txt": "requests>=2.20\n"}, "Bump requests", date=_day(3))
    repo.squash_pr(2, "Raise the requests floor again", {"requirements.txt": "requests>=2.30\n"}, date=_day(4))
    repo.commit({"requirements.txt": "requests>=2.31\n"}, "Bump requests once more", date=_day(5))
    repo.squash_pr(3, "Raise the requests floor to 2.32", {"requirements.txt": "requests>=2.32\n"}, date=_day(6))
    repo.squash_pr(4, "Raise the requests floor to 2.33", {"requirements.txt": "requests>=2.33\n"}, date=_day(7))
    return repo


def test_a_change_outside_the_synced_prs_is_said_between_neighbours(tmp_path: Path, store: Store) -> None:
    analyze_history(store, _history(tmp_path / "repo"), REPO)
    (middle,) = report_for(store, REPO, 2, CATALOG.lang("en"), "full", None).dependency_history
    assert middle.previous is not None
    assert middle.previous.number == 1
    assert middle.next is not None
    assert middle.next.number == 3
    assert middle.text == (
        "requests in requirements.txt: `>=2.20` → `>=2.30`; "
        "before: `>=2.10` (#1), then changed outside the synced PRs; "
        "after: `>=2.32` (#3), after a change outside the synced PRs"
    )
    (joined,) = report_for(store, REPO, 3, CATALOG.lang("zh"), "full", None).dependency_history
    # #3 read what #2 left only after a push in between; #4 reads what #3 left
    assert "其后在已同步的 PR 之外又有改动" in joined.text
    assert joined.text.endswith("此后：`>=2.33`（#4）")
    (last,) = report_for(store, REPO, 4, CATALOG.lang("en"), "full", None).dependency_history
    assert last.text.endswith("before: `>=2.32` (#3); after: no later change by a synced PR")
