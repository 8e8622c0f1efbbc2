"""Fixtures for the end-to-end tests: real git repositories, a database filled through the
CLI (click's runner, in-process, for speed), and a way to run the installed ``prdigest``."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from tests.e2e.driver import PRDIGEST, Cli, RunPrdigest, clean_env
from tests.e2e.repos import build_escape_repo, build_story_repo, build_xss_repo


@pytest.fixture(scope="session")
def e2e_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("home")


@pytest.fixture(scope="session")
def run_cli(e2e_home: Path) -> Cli:
    return Cli(e2e_home)


@pytest.fixture(scope="session")
def run_prdigest(e2e_home: Path) -> RunPrdigest:
    """The installed console script as a subprocess, as a user runs it."""
    env = {key: value for key, value in os.environ.items()}
    for key, value in clean_env(e2e_home).items():
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
def story_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("story") / "infer"
    build_story_repo(path)
    return path


@pytest.fixture(scope="session")
def story_db(tmp_path_factory: pytest.TempPathFactory, story_repo: Path, run_cli: Cli) -> Path:
    """The story repository synced and analyzed once; tests that only read share it."""
    db = tmp_path_factory.mktemp("db") / "story.db"
    run_cli("sync", "git", story_repo, "--db", db)
    run_cli("analyze", "--db", db)
    return db


@pytest.fixture
def fresh_db(tmp_path: Path, story_db: Path) -> Path:
    """A private copy of the analyzed story database, for tests that re-analyze."""
    copy = tmp_path / "story.db"
    shutil.copyfile(story_db, copy)
    return copy


@pytest.fixture(scope="session")
def xss_db(tmp_path_factory: pytest.TempPathFactory, run_cli: Cli) -> Path:
    root = tmp_path_factory.mktemp("xss")
    build_xss_repo(root / "repo")
    db = root / "xss.db"
    run_cli("sync", "git", root / "repo", "--db", db)
    run_cli("analyze", "--db", db)
    return db


@pytest.fixture(scope="session")
def esc_db(tmp_path_factory: pytest.TempPathFactory, run_cli: Cli) -> Path:
    root = tmp_path_factory.mktemp("esc")
    build_escape_repo(root / "repo")
    db = root / "esc.db"
    run_cli("sync", "git", root / "repo", "--db", db)
    return db
