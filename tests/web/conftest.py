"""The web tests' database: the shared sample (tests.helpers.sample_store) on SQLite, and a client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.helpers.sample_store import fill_store

from prdigest.config import Settings
from prdigest.store import Store
from prdigest.web import create_app


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(f"sqlite:///{tmp_path / 'web.db'}")
    fill_store(opened)
    yield opened
    opened.close()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store, Settings())) as test_client:
        yield test_client
