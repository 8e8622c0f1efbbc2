"""The watch tests' database: `tests.helpers.watch_history` synced and analyzed once per
session into SQLite, copied for each test (a test may mark PRs read or add watches)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from tests.helpers.cli import offline_runner
from tests.helpers.watch_history import watch_store

from prdigest.store import Store


@pytest.fixture(scope="session")
def history(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the analyzed database to copy, the git clone it was synced from)."""
    root = tmp_path_factory.mktemp("watch-history")
    path = root / "analyzed.db"
    store = Store.open(f"sqlite:///{path}")
    try:
        watch_store(root / "repo", store)
    finally:
        store.close()
    return path, root / "repo"


@pytest.fixture
def clone(history: tuple[Path, Path]) -> Path:
    return history[1]


@pytest.fixture
def db(history: tuple[Path, Path], tmp_path: Path) -> str:
    copy = tmp_path / "prdigest.db"
    shutil.copyfile(history[0], copy)
    return str(copy)


@pytest.fixture
def runner() -> CliRunner:
    return offline_runner()


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """`main` reads the process environment: no user config, no LLM, no delivery settings."""
    monkeypatch.setenv("PRDIGEST_CONFIG", os.devnull)
    for name in list(os.environ):
        if name.startswith(("PRDIGEST_LLM_", "PRDIGEST_SMTP_", "PRDIGEST_DIGEST_")) or name == "OPENAI_API_KEY":
            monkeypatch.delenv(name)
