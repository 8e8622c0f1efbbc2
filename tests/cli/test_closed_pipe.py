"""``prdigest list | head -1``: a reader that goes away is not an error (quiet, exit 0)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from prdigest.models import PullRequest
from prdigest.store import Store

# Enough output to overflow a pipe buffer (64 KiB) many times over, so writes do hit the
# closed pipe instead of landing in the buffer before the reader leaves.
PRS = 3000


@pytest.fixture(scope="module")
def big_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("pipe") / "big.db"
    records = (PullRequest(repository="o/r", number=n, title="t" * 80 + str(n)) for n in range(1, PRS + 1))
    with Store.open(f"sqlite:///{db}") as store:
        store.upsert_prs(records)
    return db


@pytest.mark.parametrize("command", [["list"], ["list", "--repo", "o/r", "--json"]])
def test_a_closed_pipe_is_quiet_and_exits_zero(big_db: Path, command: list[str]) -> None:
    for _attempt in range(2):  # the race (when the reader leaves) differs run to run
        process = subprocess.Popen(
            [sys.executable, "-m", "prdigest", *command, "--db", str(big_db)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert process.stdout is not None
        assert process.stderr is not None
        assert process.stdout.readline()
        process.stdout.close()
        stderr = process.stderr.read().decode()
        process.stderr.close()
        assert process.wait(timeout=120) == 0, stderr
        assert stderr == ""
