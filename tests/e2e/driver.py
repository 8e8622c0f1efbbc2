"""Drive ``prdigest`` the way a user does: in-process through click's runner (fast) or as the
installed console script (a true subprocess), with no user config, LLM or default database."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from prdigest.cli.main import cli

PRDIGEST = Path(sys.executable).parent / "prdigest"


def clean_env(home: Path) -> dict[str, str | None]:
    """No user config, no LLM, no default database: every command names its --db."""
    return {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "PRDIGEST_CONFIG": os.devnull,  # an empty config file: no user settings
        "PRDIGEST_DB": None,
        "PRDIGEST_LLM_BASE_URL": None,
        "PRDIGEST_LLM_MODEL": None,
        "PRDIGEST_LLM_API_KEY": None,
        "OPENAI_API_KEY": None,
        "GITHUB_TOKEN": None,
        "GH_TOKEN": None,
    }


class Cli:
    """``cli("report", "acme/infer#13", "--db", db)`` in-process; asserts the exit code."""

    def __init__(self, home: Path) -> None:
        self.runner = CliRunner(env=clean_env(home))

    def __call__(self, *args: str | Path, code: int = 0) -> Result:
        result = self.runner.invoke(cli, [str(arg) for arg in args], catch_exceptions=code == 0)
        if code == 0:
            assert result.exit_code == 0, f"prdigest {args}: {result.output}"
        return result

    def facts(self, ref: str, db: Path) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self("facts", ref, "--json", "--db", db).stdout)
        return data

    def report_json(self, ref: str, db: Path, *extra: str) -> dict[str, Any]:
        out = self("report", ref, "--format", "json", "--no-llm", *extra, "--db", db).stdout
        data: dict[str, Any] = json.loads(out)
        return data


RunPrdigest = Callable[..., subprocess.CompletedProcess[str]]


def section(markdown: str, heading: str) -> str:
    """The text under ``# heading`` up to the next top-level heading."""
    match = re.search(rf"^# {re.escape(heading)}\n(.*?)(?=^# |\Z)", markdown, re.M | re.S)
    assert match is not None, f"no section {heading!r} in:\n{markdown}"
    return match.group(1)
