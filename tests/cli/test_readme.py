"""The README's two commands are the project's front door: prove they work."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from prdigest.pipeline.publish_stamps import MANIFEST

ROOT = Path(__file__).resolve().parents[2]


def test_readme_opens_with_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = readme.split("```", 2)[1]
    assert "make demo" in first_block
    assert "make test" in first_block
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in ci


def test_demo_command_syncs_analyzes_and_publishes(tmp_path: Path) -> None:
    venv = Path(os.environ.get("VIRTUAL_ENV", ROOT / ".venv"))
    out = tmp_path / "demo"
    result = subprocess.run(
        ["make", "-s", "demo", f"VENV={venv}"],
        cwd=ROOT,
        env={**os.environ, "DEMO_DIR": str(out)},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "synced" in result.stdout
    # The list shows PRs of the example repository, and the feed gives verdicts.
    assert "example-org/example-project#" in result.stdout
    # The closing summary is the command's result: on stdout, with how to call prdigest.
    assert re.search(r"^wrote \d+ reports and \d+ feeds to ", result.stdout, re.MULTILINE), result.stdout[-500:]
    assert "/bin/activate" in result.stdout.splitlines()[-2]
    reports = out / "reports"
    assert (reports / "index.html").exists()
    written = {p.suffix for p in reports.rglob("*") if p.is_file()}
    assert {".md", ".html", ".json"} <= written
    zh = [p for p in reports.rglob("*.md") if "zh" in p.as_posix()]
    assert zh, "no Chinese report written"
    assert any("执行摘要" in p.read_text(encoding="utf-8") for p in zh)
    _compare_with_golden(reports)


GOLDEN_DEMO = ROOT / "tests" / "golden" / "demo"


def _compare_with_golden(reports: Path) -> None:
    """Every file the demo publishes, byte for byte, against ``tests/golden/demo``.

    A change of behaviour shows here as a reviewed diff of real reports: regenerate with
    ``PRDIGEST_UPDATE_GOLDEN=1`` and read what changed before committing it.
    """
    # Not the publish stamps (`prdigest.pipeline.publish_stamps`): they hold this checkout's
    # code fingerprint (file times), so they differ from one machine to the next.
    written = {
        p.relative_to(reports).as_posix(): p.read_bytes()
        for p in reports.rglob("*")
        if p.is_file() and p.name != MANIFEST
    }
    if os.environ.get("PRDIGEST_UPDATE_GOLDEN") == "1":
        shutil.rmtree(GOLDEN_DEMO, ignore_errors=True)
        for name, data in written.items():
            (GOLDEN_DEMO / name).parent.mkdir(parents=True, exist_ok=True)
            (GOLDEN_DEMO / name).write_bytes(data)
        return
    expected = {p.relative_to(GOLDEN_DEMO).as_posix(): p.read_bytes() for p in GOLDEN_DEMO.rglob("*") if p.is_file()}
    assert sorted(written) == sorted(expected), "the demo wrote a different set of files"
    changed = [name for name in sorted(written) if written[name] != expected[name]]
    assert not changed, f"{len(changed)} demo outputs differ from tests/golden/demo, first: {changed[:5]}"


def _readme_command_lines() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = readme.split("```")[1::2]
    lines = []
    for block in blocks:
        for line in block.splitlines():
            command = line.split("#", 1)[0].strip()
            if command.startswith("prdigest "):
                lines.append(command)
    return lines


def test_every_readme_command_and_option_exists() -> None:
    from click.testing import CliRunner

    from prdigest.cli.main import cli

    lines = _readme_command_lines()
    assert len(lines) >= 10
    runner = CliRunner()
    for line in lines:
        words = line.split()[1:]
        path = []
        for word in words:
            if word.startswith("-") or "/" in word or "#" in word or "." in word:
                break
            path.append(word)
        result = runner.invoke(cli, [*path, "--help"])
        assert result.exit_code == 0, f"{line}: {result.output}"
        for word in words:
            if word.startswith("--"):
                option = word.split("=", 1)[0]
                assert option in result.output, f"README uses {option} but `prdigest {' '.join(path)}` has none"
