"""Load the shared hand-built records (tests run with --import-mode=importlib)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SEED_RECORDS = Path(__file__).parent.parent / "narrate_extractive" / "seed_records.py"


def _load_seed_records() -> ModuleType:
    name = "prdigest_test_seed_records"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, SEED_RECORDS)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def seeds() -> Any:
    """seed_records.py: cupy_pr/cupy_facts (seed 000), humming_pr/humming_facts (seed 002), hostile_*."""
    return _load_seed_records()
