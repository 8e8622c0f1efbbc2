"""Fixtures of the use-case tests: a real SQLite store, and one holding a small synced git history."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.pipeline.sync import sync_source
from prdigest.sources.git import GitSource, GitSyncOptions
from prdigest.store import Store

SMALL_REPO = "example-org/widgets"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(f"sqlite:///{tmp_path / 'prdigest.db'}")
    yield opened
    opened.close()


@pytest.fixture
def small_store(tmp_path: Path, store: Store) -> Store:
    """Three merged PRs of ``example-org/widgets``: #2 fixes #1's parser, #3 reverts #2."""
    repo = GitRepoBuilder(tmp_path / "small-repo")
    repo.commit({"README.md": "# widgets\n"}, "Initial commit")
    repo.squash_pr(1, "Add the parser", {"widgets/parser.py": "def parse(text):\n    return text\n"})
    repo.squash_pr(
        2,
        "Strip input in the parser",
        {"widgets/parser.py": "def parse(text):\n    return text.strip()\n"},
        body="Follow-up to #1: leading spaces broke the lookup.",
    )
    repo.squash_pr(
        3,
        'Revert "Strip input in the parser"',
        {"widgets/parser.py": "def parse(text):\n    return text\n"},
        body="This reverts #2: it broke indented input.",
    )
    sync_source(store, GitSource(repo.path, GitSyncOptions(repository=SMALL_REPO)))
    return store
