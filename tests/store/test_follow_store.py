"""Followed repositories and parked work in the store, on SQLite and PostgreSQL, and
migration 0004 down and up."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import inspect

from prdigest.errors import NotFound
from prdigest.store import Store, follow_store, migrate
from prdigest.store.follow_store import Follow
from prdigest.store.testing import engine_of


def _follow(repository: str = "org/a", **changes: object) -> Follow:
    values: dict[str, object] = {
        "repository": repository,
        "source": "git",
        "location": "/srv/clones/a",
        "every_seconds": 900,
        "languages": ("zh", "en"),
        "publish_dir": None,
    }
    values.update(changes)
    return Follow(**values)  # type: ignore[arg-type]


def test_follows_are_added_changed_listed_and_removed(db_url: str) -> None:
    with Store.open(db_url) as store:
        follow_store.add_follow(store, _follow("org/b"))
        follow_store.add_follow(store, _follow("org/a"))
        follow_store.add_follow(store, _follow("org/a", every_seconds=3600, source="github", location=None))
        listed = follow_store.list_follows(store)
        assert [(f.repository, f.source, f.every_seconds) for f in listed] == [
            ("org/a", "github", 3600),
            ("org/b", "git", 900),
        ]
        assert listed[0].languages == ("zh", "en")
        assert listed[0].due(datetime.now(UTC))  # never run
        follow_store.mark_run(store, "org/a", "failed", "boom")
        again = follow_store.get_follow(store, "org/a")
        assert (again.last_status, again.last_error) == ("failed", "boom")
        assert not again.due(datetime.now(UTC))
        assert again.due(datetime.now(UTC) + timedelta(hours=1, seconds=1))
        follow_store.remove_follow(store, "org/a")
        with pytest.raises(NotFound):
            follow_store.remove_follow(store, "org/a")
        with pytest.raises(NotFound):
            follow_store.get_follow(store, "org/a")


def test_parked_work_keeps_its_latest_error_until_it_succeeds(db_url: str) -> None:
    with Store.open(db_url) as store:
        follow_store.park(store, "analyze", "org/a", "#3", "first error", 2)
        follow_store.park(store, "analyze", "org/a", "#3", "second error", 4)
        follow_store.park(store, "narrate", "org/a", "#4 en brief", "x" * 10_000, 6)
        parked = follow_store.list_parked(store, "org/a")
        assert {(p.task, p.subject, p.error[:12], p.attempts) for p in parked} == {
            ("analyze", "#3", "second error", 4),
            ("narrate", "#4 en brief", "x" * 12, 6),
        }
        assert max(len(p.error) for p in parked) == 4000
        assert follow_store.parked_counts(store) == {"analyze": 1, "narrate": 1}
        follow_store.unpark(store, "analyze", "org/a", "#3")
        assert follow_store.parked_counts(store) == {"narrate": 1}


def test_migration_0004_downgrades_and_upgrades(tmp_path: Path) -> None:
    opened = Store.open(f"sqlite:///{tmp_path / 'm.db'}")
    try:
        follow_store.add_follow(opened, _follow())
        migrate.downgrade(engine_of(opened), "0003")
        assert not inspect(engine_of(opened)).has_table("follows")
        assert not inspect(engine_of(opened)).has_table("parked_tasks")
        migrate.upgrade(engine_of(opened))
        assert follow_store.list_follows(opened) == []
    finally:
        opened.close()
