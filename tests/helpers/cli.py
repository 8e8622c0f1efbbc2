"""Running the CLI in-process as a test does: no LLM, no user config, so the narrator is the
deterministic extractive one."""

from __future__ import annotations

import os

from click.testing import CliRunner

from prdigest.cli.main import cli


def offline_runner() -> CliRunner:
    return CliRunner(env={"PRDIGEST_LLM_BASE_URL": None, "PRDIGEST_CONFIG": os.devnull})


def run_ok(runner: CliRunner, *args: str) -> str:
    """The command's output; it must exit 0 (the output is shown when it does not)."""
    result = runner.invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output
