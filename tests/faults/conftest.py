"""The fault suite: prdigest under concurrent writers, failing databases, read-only files and
file systems, killed processes and broken records. Every test runs the real command line in
subprocesses and checks the exit code, that an error is one line, and what is stored.

Hostile inputs are kept fixed elsewhere, next to the code they attack:
tests/sources/github/test_hostile_bundles.py (a hypothesis strategy over the bundle format
through ``prdigest import``) and tests/config/test_config_files.py (hostile config files).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from prdigest.demo.synthetic import write_synthetic_history


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


def command(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> list[str]:
    return [sys.executable, "-m", "prdigest", *args]


def run(*args: str, timeout: float = 240, env: dict[str, str] | None = None) -> Run:
    """``prdigest ARGS`` in a subprocess (no config file, no LLM)."""
    done = subprocess.run(
        command(*args), capture_output=True, text=True, timeout=timeout, env=clean_env(env), check=False
    )
    return Run(done.returncode, done.stdout, done.stderr)


def clean_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRDIGEST_")}
    env["PRDIGEST_CONFIG"] = os.devnull
    env.update(extra or {})
    return env


def assert_one_line_error(result: Run, code: int) -> str:
    """The command failed with ``code`` and said why in one ``error:`` line, no traceback."""
    assert result.code == code, (result.code, result.err)
    lines = [line for line in result.err.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1, result.err
    assert "Traceback" not in result.err, result.err
    return errors[0]


@pytest.fixture(scope="session")
def small_history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real git clone with 24 merged PRs (squash and merge commits)."""
    return write_synthetic_history(tmp_path_factory.mktemp("history") / "repo", prs=24, files=40, lines=40)


@pytest.fixture
def scratch_mount(tmp_path: Path) -> Iterator[Path]:
    """A small tmpfs (1 MiB) mounted for this test, or a skip saying why it cannot be."""
    target = tmp_path / "mnt"
    target.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m,mode=0777", "tmpfs", str(target)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip() or done.returncode}")
    try:
        yield target
    finally:
        subprocess.run(["umount", "-l", str(target)], check=False)


def remount(target: Path, mode: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{mode}", str(target)], check=True)
