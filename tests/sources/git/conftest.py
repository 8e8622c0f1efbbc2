"""Fixtures for the git source tests: a way to run the CLI as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

# ``tests.helpers`` must be importable with --import-mode=importlib (the repo root is not
# on sys.path by default).
_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

PRDIGEST = Path(sys.executable).parent / "prdigest"

RunCli = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def run_cli(tmp_path: Path) -> RunCli:
    """Run ``prdigest ARGS`` as a subprocess; returns the completed process (text)."""
    env = dict(os.environ)
    env.pop("PRDIGEST_DB", None)
    env["HOME"] = str(tmp_path / "home")

    def run(*args: str | Path, check: bool = False) -> subprocess.CompletedProcess[str]:
        completed = subprocess.run(
            [str(PRDIGEST), *map(str, args)], capture_output=True, text=True, env=env, check=False, timeout=120
        )
        if check and completed.returncode != 0:
            raise AssertionError(f"prdigest {args} failed ({completed.returncode}): {completed.stderr}")
        return completed

    return run


SyncInProcess = Callable[..., str]


@pytest.fixture
def sync_in_process() -> SyncInProcess:
    """Run ``prdigest sync git ARGS`` in-process (click's runner); returns stdout, asserts success."""
    from click.testing import CliRunner

    from prdigest.cli.main import cli

    def run(*args: str | Path) -> str:
        result = CliRunner().invoke(cli, ["sync", "git", *map(str, args)], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.stdout

    return run


def load_pr(db: Path, repository: str, number: int) -> Any:
    from prdigest.store import Store

    store = Store.open(f"sqlite:///{db}")
    try:
        return store.get_pr(repository, number)
    finally:
        store.close()


def stored_numbers(db: Path) -> dict[int, str]:
    import sqlite3

    with sqlite3.connect(db) as connection:
        return {int(n): str(s) for n, s in connection.execute("SELECT number, state FROM pull_requests")}
