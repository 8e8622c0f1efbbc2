"""Every command reads the configuration first (issue 24): a broken file is told at once, by
`list` as by `report`, with the file, the line and the key, and exit 2; --help still works."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PRDIGEST = Path(sys.executable).parent / "prdigest"


def _run(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRDIGEST_", "GITHUB_", "GH_", "OPENAI_"))}
    env["PRDIGEST_CONFIG"] = str(config)
    return subprocess.run([str(PRDIGEST), *args], capture_output=True, text=True, env=env, timeout=60, check=False)


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b'[github]\ntoken = "t"\n[llm]\nmodel = "caf\xe9"\n', "line 4: the config file is not UTF-8 text"),
        (b"[llm\nmodel = 1\n", "not valid TOML"),
        (b'[github]\ntoken = "t"\n\n[llm]\nmodle = "m"\n', "line 5: unknown key [llm] modle; did you mean model?"),
    ],
)
@pytest.mark.parametrize("command", [["list"], ["deps", "acme/x"], ["feed", "acme/x"]])
def test_a_broken_config_stops_every_command_at_start(
    tmp_path: Path, content: bytes, said: str, command: list[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_bytes(content)
    result = _run(config, *command, "--db", str(tmp_path / "none.db"))
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"error: {config}")
    assert said in result.stderr
    assert result.stdout == ""
    assert not (tmp_path / "none.db").exists()


def test_help_explains_itself_even_with_a_broken_config(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_bytes(b"\xff\xfe")
    result = _run(config, "list", "--help")
    assert result.returncode == 0, result.stderr
    assert "Usage: prdigest list" in result.stdout
