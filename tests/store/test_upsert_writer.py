"""The upsert's helper-thread writer keeps the batch semantics: order, callbacks, errors."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from prdigest.models import PullRequest
from prdigest.store import Store
from prdigest.store.record_batches import Batch, write_in_batches
from prdigest.store.testing import engine_of


def _prs(count: int, *, fail_after: int | None = None) -> Iterator[PullRequest]:
    for number in range(1, count + 1):
        if fail_after is not None and number > fail_after:
            raise RuntimeError("the source broke")
        yield PullRequest(repository="org/proj", number=number, title=f"PR {number}", body="x" * number)


def test_every_record_read_before_a_source_error_is_committed(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'p.db'}") as store:
        with pytest.raises(RuntimeError, match="the source broke"):
            store.upsert_prs(_prs(500, fail_after=250), batch_size=100)
        # two full batches, and the 50 records of the third read before the source broke
        assert store.count_prs() == 250


def test_callbacks_come_in_order_on_the_callers_thread(tmp_path: Path) -> None:
    seen: list[tuple[int, str, bool]] = []

    def record(pr: PullRequest, outcome: str) -> None:
        seen.append((pr.number, outcome, threading.current_thread() is threading.main_thread()))

    with Store.open(f"sqlite:///{tmp_path / 'p.db'}") as store:
        stats = store.upsert_prs(_prs(7), batch_size=3, on_record=record)
        assert (stats.inserted, stats.updated, stats.unchanged) == (7, 0, 0)
        assert seen == [(n, "inserted", True) for n in range(1, 8)]
        seen.clear()
        changed = [*_prs(2), PullRequest(repository="org/proj", number=3, title="renamed")]
        stats = store.upsert_prs(changed, batch_size=2, on_record=record)
        assert (stats.inserted, stats.updated, stats.unchanged) == (0, 1, 2)
        assert [(n, o) for n, o, _main in seen] == [(1, "unchanged"), (2, "unchanged"), (3, "updated")]
        assert store.get_pr("org/proj", 3).title == "renamed"


def test_a_database_error_in_the_writer_reaches_the_caller(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'p.db'}") as store:
        from sqlalchemy import text

        with engine_of(store).begin() as connection:
            connection.execute(text("DROP TABLE pull_requests"))
        with pytest.raises(Exception, match="pull_requests"):
            store.upsert_prs(_prs(10), batch_size=3)


def test_a_batch_closes_at_its_byte_bound_too() -> None:
    # Big records (whole file contents) must not make a 200-record batch hundreds of MB:
    # with a 20 kB bound, 3 records of ~9 kB close a batch.
    records = [PullRequest(repository="org/proj", number=n, title="big", body="y" * 9000) for n in range(1, 8)]
    batches: list[list[int]] = []

    def write(batch: Batch[PullRequest]) -> list[tuple[PullRequest, str]]:
        batches.append([pr.number for pr, _json in batch])
        return [(pr, "inserted") for pr, _json in batch]

    stats = write_in_batches(records, write, threaded=True, batch_size=200, batch_bytes=20_000, on_record=None)
    assert batches == [[1, 2, 3], [4, 5, 6], [7]]
    assert stats.inserted == 7
