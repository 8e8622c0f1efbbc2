"""Fixtures of the GitHub-path end-to-end tests: hand-written bundles of a seed-002 story
(``acme/widgets`` #301 feature, #302 revert, #303 restore with review discussion, #304 a quiet
PR, #305 hostile review text), imported and analyzed through the CLI; a fake GitHub on
127.0.0.1 serving the same story as GraphQL + REST."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.e2e.driver import PRDIGEST, Cli, RunPrdigest, clean_env
from tests.e2e_github.story import BUNDLES, FAKE, TOKEN
from tests.sources.github.fake_github import FakeGitHub


@pytest.fixture(scope="session")
def gh_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("gh_home")
    config = home / "with-token.toml"
    config.write_text(f'[github]\ntoken = "{TOKEN}"\n', encoding="utf-8")
    return home


@pytest.fixture(scope="session")
def token_config(gh_home: Path) -> Path:
    return gh_home / "with-token.toml"


@pytest.fixture(scope="session")
def run_cli(gh_home: Path) -> Cli:
    return Cli(gh_home)


@pytest.fixture(scope="session")
def run_prdigest(gh_home: Path) -> RunPrdigest:
    """The installed console script as a subprocess, with no user config or token in the env."""
    env = dict(os.environ)
    for key, value in clean_env(gh_home).items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value

    def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(PRDIGEST), *map(str, args)], capture_output=True, text=True, env=env, check=False, timeout=120
        )

    return run


@pytest.fixture(scope="session")
def bundle_db(tmp_path_factory: pytest.TempPathFactory, run_cli: Cli) -> Path:
    """Every hand-written bundle imported and analyzed once; tests that only read share it."""
    db = tmp_path_factory.mktemp("bundles") / "bundles.db"
    imported = run_cli("import", BUNDLES, "--db", db).stdout
    assert "imported 5 bundles: 5 new" in imported, imported
    run_cli("analyze", "--db", db)
    return db


def _fake_fixture(name: str) -> Any:
    return json.loads((FAKE / name).read_text(encoding="utf-8"))


@pytest.fixture
def fake_story() -> Iterator[FakeGitHub]:
    """The fake GitHub of tests/sources/github, answering with this area's story instead."""
    fake = FakeGitHub(token=TOKEN)
    fake.pr_nodes = _fake_fixture("graphql_pull_requests.json")
    fake.files = _fake_fixture("rest_files.json")
    fake.contents = _fake_fixture("rest_contents.json")
    fake.nested = {}
    fake.rest = {"pulls": {}, "commits": {}, "reviews": {}, "review_comments": {}, "issue_comments": {}}
    with fake as server:
        yield server
