"""Fixtures of the honest-gaps tests: the CLI driven in-process, as a user runs it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from tests.e2e.driver import Cli  # noqa: E402


@pytest.fixture(scope="module")
def run_cli(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    return Cli(tmp_path_factory.mktemp("home"))
