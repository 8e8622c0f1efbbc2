"""Fixtures of the GitHub-source tests: a fake GitHub on 127.0.0.1, a fresh store, a client."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from prdigest.sources.github.client import GitHubClient
from prdigest.sources.github.config import Credentials
from prdigest.store import Store
from prdigest.store.http_cache import HttpCache

TOKEN = "ghp_TESTTOKEN0123456789abcdefSECRET"


def _load_fake() -> ModuleType:
    # Tests are not a package (importlib mode): load the helper module by path.
    name = "prdigest_tests_sources_github_fake"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("fake_github.py"))
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


fake_github = _load_fake()


@pytest.fixture
def fake() -> Iterator[Any]:
    with fake_github.FakeGitHub(token=TOKEN) as server:
        yield server


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'prdigest.db'}"


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    opened = Store.open(db_url)
    yield opened
    opened.close()


class SleepRecorder:
    """An injected sleep: records waits and advances a fake clock instead of sleeping."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start
        self.waits: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds

    def clock(self) -> float:
        return self.now


@pytest.fixture
def sleeper() -> SleepRecorder:
    return SleepRecorder()


@pytest.fixture
def make_client(fake: Any, store: Store, sleeper: SleepRecorder) -> Iterator[Callable[..., GitHubClient]]:
    made: list[GitHubClient] = []

    def build(token: str | None = TOKEN, **kwargs: Any) -> GitHubClient:
        kwargs.setdefault("cache", HttpCache(store))
        kwargs.setdefault("sleep", sleeper.sleep)
        kwargs.setdefault("clock", sleeper.clock)
        kwargs.setdefault("timeout", 5.0)
        client = GitHubClient(fake.url, Credentials(token, "test" if token else "none"), **kwargs)
        made.append(client)
        return client

    yield build
    for client in made:
        client.close()
