"""Fixtures shared by every test area: databases on SQLite and (when available) PostgreSQL."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from types import ModuleType

import pytest
from hypothesis import HealthCheck, settings
from sqlalchemy import create_engine, text

PG_URL_ENV = "PRDIGEST_TEST_PG_URL"

# Timing belongs to benchmarks: on a loaded 2-core CI machine a per-example deadline only
# makes property tests flaky, so it is off; the examples themselves stay the same.
# Under CI the examples are derived from each test, not drawn at random, so a landing
# never hangs on a draw; developers' runs keep exploring new inputs.
settings.register_profile(
    "prdigest",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=os.environ.get("CI", "").lower() in ("1", "true", "yes"),
)
settings.load_profile("prdigest")


def _postgres_database() -> Iterator[str]:
    """A fresh PostgreSQL database on the test server, dropped afterwards."""
    server = os.environ.get(PG_URL_ENV)
    if not server:
        pytest.skip(f"no PostgreSQL server: set {PG_URL_ENV} (make test starts one)")
    name = f"prdigest_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    base, _, _ = server.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: object) -> Iterator[str]:
    """A URL of an empty database, once on SQLite and once on PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/prdigest.db"
    else:
        yield from _postgres_database()


@pytest.fixture
def sqlite_url(tmp_path: object) -> str:
    return f"sqlite:///{tmp_path}/prdigest.db"


@pytest.fixture(scope="session")
def seeds() -> ModuleType:
    """Hand-built records of the seed situations: cupy_pr/cupy_facts (seed 000),
    humming_pr/humming_facts (seed 002), hostile_* (untrusted text)."""
    from tests.narrate.extractive import seed_records

    return seed_records
