"""The shared sample database (tests.helpers.sample_store): on SQLite, and on each backend."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.helpers.sample_store import fill_store

from prdigest.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """The sample on SQLite (query plans and FTS5 details are SQLite's)."""
    opened = Store.open(f"sqlite:///{tmp_path / 'sample.db'}")
    fill_store(opened)
    yield opened
    opened.close()


@pytest.fixture
def any_store(db_url: str) -> Iterator[Store]:
    """The sample once on SQLite and once on PostgreSQL (when PRDIGEST_TEST_PG_URL is set)."""
    opened = Store.open(db_url)
    fill_store(opened)
    yield opened
    opened.close()
