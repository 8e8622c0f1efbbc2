"""Watches in the store, on SQLite and PostgreSQL: saved, replaced, listed, removed; what a
digest delivered is remembered; and revision 0008 upgrades a database of revision 0007."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import inspect, update
from tests.helpers.watch_history import REPO, watch_store

from prdigest.errors import NotFound
from prdigest.models.facts import VerdictLevel
from prdigest.models.watch import Watch
from prdigest.store import Store, migrate
from prdigest.store.database import SqliteAccess, make_engine, migration_lock
from prdigest.store.schema import facts
from prdigest.store.watch_store import (
    delivered_count,
    digest_candidates,
    get_watch,
    list_watches,
    mark_read,
    remove_watch,
    save_watch,
)
from prdigest.words import Lang


@pytest.fixture
def store(db_url: str, tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(db_url)
    watch_store(tmp_path / "repo", opened)
    yield opened
    opened.close()


def _watch(**changes: object) -> Watch:
    values: dict[str, object] = {"name": "sched", "repository": REPO, "paths": ("src/**",), "lang": Lang("en")}
    return Watch.model_validate({**values, **changes})


def test_a_watch_is_saved_replaced_and_removed(store: Store) -> None:
    assert save_watch(store, _watch()) is True
    assert save_watch(store, _watch(packages=("numpy",), min_level=VerdictLevel.QUICK_READ)) is False
    found = get_watch(store, "sched")
    assert (found.paths, found.packages, found.min_level) == (("src/**",), ("numpy",), VerdictLevel.QUICK_READ)
    assert found.created_at is not None
    assert found.last_read_at is None
    save_watch(store, _watch(name="another", repository="example-org/other"))
    assert [w.name for w in list_watches(store)] == ["another", "sched"]
    assert [w.name for w in list_watches(store, REPO)] == ["sched"]
    remove_watch(store, "another")
    with pytest.raises(NotFound, match="no watch named 'another'"):
        get_watch(store, "another")
    with pytest.raises(NotFound):
        remove_watch(store, "another")


def test_what_was_delivered_is_left_out_of_unread(store: Store) -> None:
    save_watch(store, _watch())
    watch = get_watch(store, "sched")
    every = digest_candidates(store, watch, since=None, unread=True)
    assert [c.number for c in every] == [6, 5, 4, 3, 2, 1]  # newest first
    assert every[0].author == "carol"
    assert every[0].facts.number == 6
    first = [c.pull_request_id for c in every[:2]]
    assert mark_read(store, "sched", first) == 2
    assert mark_read(store, "sched", first) == 0  # marking again changes nothing
    assert delivered_count(store, "sched") == 2
    assert [c.number for c in digest_candidates(store, watch, since=None, unread=True)] == [4, 3, 2, 1]
    assert get_watch(store, "sched").last_read_at is not None
    # The verdict floor is applied in the query.
    quick = watch.model_copy(update={"min_level": VerdictLevel.QUICK_READ})
    assert [c.number for c in digest_candidates(store, quick, since=None, unread=False)] == [6, 5, 4, 1]
    # Removing the watch forgets what it delivered.
    remove_watch(store, "sched")
    save_watch(store, _watch())
    assert delivered_count(store, "sched") == 0


def test_revision_0008_upgrades_a_0007_database(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    engine = make_engine(f"sqlite:///{path}", SqliteAccess())
    try:
        with migration_lock(engine) as connection:
            migrate._run_alembic(connection, "upgrade", "0007")
        assert "watches" not in inspect(engine).get_table_names()
        assert migrate.needs_upgrade(engine)
    finally:
        engine.dispose()
    Store.open(f"sqlite:///{path}").close()
    engine = make_engine(f"sqlite:///{path}", SqliteAccess())
    try:
        assert {"watches", "watch_reads"} <= set(inspect(engine).get_table_names())
        assert not migrate.needs_upgrade(engine)
    finally:
        engine.dispose()


def test_what_was_looked_at_is_read_again_only_when_analyzed_again_or_the_rules_change(store: Store) -> None:
    save_watch(store, _watch())
    watch = get_watch(store, "sched")
    every = {c.number: c for c in digest_candidates(store, watch, since=None, unread=True)}
    looked_at = [(every[n].pull_request_id, every[n].facts_key) for n in (2, 3)]
    assert mark_read(store, "sched", [every[6].pull_request_id], looked_at) == 1
    assert delivered_count(store, "sched") == 1  # looked at is not delivered
    assert [c.number for c in digest_candidates(store, watch, since=None, unread=True)] == [5, 4, 1]
    # Looked at under other facts than the stored ones: looked at again.
    pr3 = every[3].pull_request_id
    mark_read(store, "sched", [], [(pr3, "an older analysis")])
    assert [c.number for c in digest_candidates(store, watch, since=None, unread=True)] == [5, 4, 3, 1]
    mark_read(store, "sched", [], [(pr3, every[3].facts_key)])
    assert [c.number for c in digest_candidates(store, watch, since=None, unread=True)] == [5, 4, 1]
    # #3 analyzed again (another cache key): looked at again; #2 stays left out.
    with store._engine.begin() as connection:
        connection.execute(update(facts).where(facts.c.pull_request_id == pr3).values(cache_key="re-analyzed"))
    assert [c.number for c in digest_candidates(store, watch, since=None, unread=True)] == [5, 4, 3, 1]
    # A PR looked at, then delivered, counts as delivered.
    assert mark_read(store, "sched", [every[2].pull_request_id]) == 1
    assert delivered_count(store, "sched") == 2
    # New rules forget what was looked at, never what was delivered.
    save_watch(store, _watch(paths=("docs/**",)))
    assert [c.number for c in digest_candidates(store, watch, since=None, unread=True)] == [5, 4, 3, 1]
    assert delivered_count(store, "sched") == 2
