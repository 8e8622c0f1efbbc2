"""Running the CLI in-process as a test does: no LLM, no user config, so the narrator is the
deterministic extractive one."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from prdigest.cli.main import cli


def offline_runner() -> CliRunner:
    return CliRunner(env={"PRDIGEST_LLM_BASE_URL": None, "PRDIGEST_CONFIG": os.devnull})


def run_ok(runner: CliRunner, *args: str) -> str:
    """The command's output; it must exit 0 (the output is shown when it does not)."""
    result = runner.invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def run_in_fresh_process(args: list[str], home: Path, modules: tuple[str, ...]) -> tuple[str, dict[str, bool]]:
    """The CLI run as ``prdigest ARGS`` in a new interpreter (with ``home`` as HOME and no
    PRDIGEST_DB): its output, and which of ``modules`` it loaded. It must exit 0."""
    script = (
        "import sys\n"
        "from prdigest.cli.main import main\n"
        "try:\n"
        f"    main({args!r})\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        f"print(repr([m in sys.modules for m in {modules!r}]))\n"
    )
    env = {**os.environ, "HOME": str(home)}
    env.pop("PRDIGEST_DB", None)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    *output, loaded = done.stdout.splitlines()
    return "\n".join(output) + "\n", dict(zip(modules, ast.literal_eval(loaded), strict=True))


def run_main(*argv: str) -> tuple[int, str, str]:
    """``prdigest ARGV`` through `main`, as the installed command runs it (errors become one
    ``error:`` line and an exit code): (exit code, stdout, stderr)."""
    import contextlib
    import io

    from prdigest.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(argv))
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()
