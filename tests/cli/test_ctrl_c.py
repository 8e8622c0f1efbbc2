"""Ctrl-C ends a command with exit 130 even where it did not come as a plain KeyboardInterrupt:
wrapped in a library's own error, or raised inside source run by exec()."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from prdigest.interrupts import CTRL_C


class LibraryError(Exception):
    """What a library raises when anything fails inside its own machinery."""


def _through_a_library(work: object) -> None:
    # As pydantic does while building a schema on first use: whatever is raised inside
    # comes back as the library's error, KeyboardInterrupt included.
    try:
        assert callable(work)
        work()
    except BaseException as exc:
        raise LibraryError(str(exc)) from None


def _one_item(work: object) -> str:
    """What a per-PR site does: a failure is the item's; a Ctrl-C is not."""
    try:
        _through_a_library(work)
    except LibraryError as exc:
        CTRL_C.raise_if_pressed()
        return f"failed: {exc}"
    return "written"


def test_a_wrapped_ctrl_c_is_still_told_apart_from_a_failure() -> None:
    with CTRL_C.recorded():
        with pytest.raises(KeyboardInterrupt):
            _one_item(lambda: signal.raise_signal(signal.SIGINT))
        assert CTRL_C.pressed
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_failure_with_no_ctrl_c_is_a_failure() -> None:
    with CTRL_C.recorded():
        assert _one_item(lambda: 1 / 0) == "failed: division by zero"
        assert not CTRL_C.pressed


def test_each_run_starts_with_no_ctrl_c_recorded() -> None:
    with CTRL_C.recorded(), pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)
    with CTRL_C.recorded():
        assert not CTRL_C.pressed
        CTRL_C.raise_if_pressed()


def _run_module(tmp_path: Path, body: str, *args: str) -> subprocess.CompletedProcess[str]:
    package = tmp_path / "probe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "__main__.py").write_text(textwrap.dedent(body))
    return subprocess.run(
        [sys.executable, "-m", "probe", *args], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False
    )


def test_an_ignored_ctrl_c_stays_ignored(tmp_path: Path) -> None:
    # nohup, a shell's background job: SIGINT ignored on purpose; recording must not undo it.
    done = _run_module(
        tmp_path,
        """
        import signal
        from prdigest.interrupts import CTRL_C
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        with CTRL_C.recorded():
            signal.raise_signal(signal.SIGINT)
            print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN, CTRL_C.pressed)
        """,
    )
    assert done.stdout.split() == ["True", "False"], done.stderr


@pytest.mark.parametrize("where", ["exec", "plain"])
def test_ctrl_c_inside_exec_source_still_exits_130_under_python_m(tmp_path: Path, where: str) -> None:
    # dataclasses and namedtuple run exec() on source while a module is first imported; a
    # Ctrl-C there used to end `python -m prdigest` killed by SIGINT (-2), not with 130.
    done = _run_module(
        tmp_path,
        """
        import signal, sys
        from prdigest.cli.main import exit_interrupted
        try:
            if sys.argv[1] == "exec":
                exec("import signal; signal.raise_signal(signal.SIGINT)")
            else:
                signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            exit_interrupted()
        """,
        where,
    )
    assert done.returncode == 130, done.stderr
