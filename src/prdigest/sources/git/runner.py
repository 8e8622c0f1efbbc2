"""Run git as a subprocess with settings that make its output parseable, and clear errors.

User configuration must not change what we parse (colour, external diff drivers, prefixes,
quoted paths), so every call passes the same ``-c`` overrides.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import IO

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

from prdigest.errors import NotAGitRepository, SourceError

# Overrides applied to every git call: stable, machine-readable output whatever the user set.
GIT_OVERRIDES: tuple[str, ...] = (
    "-c",
    "core.quotepath=off",
    "-c",
    "color.ui=never",
    "-c",
    "log.showSignature=false",
    "-c",
    "diff.noprefix=false",
    "-c",
    "core.pager=cat",
)


def git_executable() -> str:
    """The git binary, or a SourceError saying git is missing."""
    found = shutil.which("git")
    if found is None:
        raise SourceError("git is not installed or not on PATH; install git to sync from a clone")
    return found


def git_command(repo: Path, args: Sequence[str]) -> list[str]:
    return [git_executable(), "-C", str(repo), *GIT_OVERRIDES, *args]


def git_environment() -> dict[str, str]:
    env = dict(os.environ)
    # Never prompt (credentials, pagers) in a batch tool; keep messages in English to parse.
    env["GIT_TERMINAL_PROMPT"] = "0"
    env["GIT_PAGER"] = "cat"
    env["LC_ALL"] = "C"
    return env


def run_git(repo: Path, args: Sequence[str], *, check: bool = True, stdin: bytes | None = None) -> bytes:
    """Run one git command and return its stdout; a failure becomes a one-line SourceError."""
    try:
        completed = subprocess.run(
            git_command(repo, args),
            input=stdin,
            capture_output=True,
            env=git_environment(),
            check=False,
        )
    except OSError as exc:
        raise SourceError(f"cannot run git in {repo}: {exc.strerror or exc}") from exc
    if check and completed.returncode != 0:
        raise SourceError(f"git {args[0]} failed in {repo}: {first_line(completed.stderr)}")
    return completed.stdout


def run_git_text(repo: Path, args: Sequence[str], *, check: bool = True) -> str:
    return run_git(repo, args, check=check).decode("utf-8", errors="replace").strip()


def try_git_text(repo: Path, args: Sequence[str]) -> str | None:
    """stdout of a git call, or None when it fails (an absent ref, no remote)."""
    stdout = try_git_bytes(repo, args)
    return None if stdout is None else stdout.decode("utf-8", errors="replace").strip()


def try_git_bytes(repo: Path, args: Sequence[str]) -> bytes | None:
    """stdout of a git call as it was written, or None when it fails."""
    try:
        completed = subprocess.run(git_command(repo, args), capture_output=True, env=git_environment(), check=False)
    except OSError:
        return None
    return completed.stdout if completed.returncode == 0 else None


class PendingGitText:
    """A git call started now whose text is taken later: ``try_git_text``'s answer, while the
    caller does other work (git's output waits in a widened pipe)."""

    def __init__(self, repo: Path, args: Sequence[str]) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        with contextlib.suppress(OSError):
            self._process = subprocess.Popen(
                git_command(repo, args),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=git_environment(),
            )
            assert self._process.stdout is not None
            widen_pipe(self._process.stdout)

    def result(self) -> str | None:
        """stdout of the call, or None when it failed (as ``try_git_text``); once."""
        process, self._process = self._process, None
        if process is None:
            return None
        stdout, _stderr = process.communicate()
        if process.returncode != 0:
            return None
        return stdout.decode("utf-8", errors="replace").strip()

    def close(self) -> None:
        """Stop the call if its result was never taken."""
        process, self._process = self._process, None
        if process is not None:
            process.kill()
            process.communicate()


def open_git_stream(repo: Path, args: Sequence[str], *, with_stdin: bool = False) -> subprocess.Popen[bytes]:
    """Start a git command whose stdout is read incrementally (bytes).

    With ``with_stdin`` (request/response tools like ``cat-file --batch``) stderr is
    discarded: nobody drains it while we wait on stdout, and a full pipe would deadlock.
    """
    try:
        return subprocess.Popen(
            git_command(repo, args),
            stdin=subprocess.PIPE if with_stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL if with_stdin else subprocess.PIPE,
            env=git_environment(),
            bufsize=1 << 16,
        )
    except OSError as exc:
        raise SourceError(f"cannot run git in {repo}: {exc.strerror or exc}") from exc


def widen_pipe(stream: IO[bytes], size: int = 1 << 20) -> None:
    """Let git write ``size`` bytes ahead of us (Linux; elsewhere the default stays).

    A 64 KB pipe stops git as soon as Python is busy with one large commit; a wider one keeps
    git working meanwhile. The buffer is kernel memory and the same whatever the history length.
    """
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    if set_size is None:
        return
    with contextlib.suppress(OSError):  # above /proc/sys/fs/pipe-max-size, or not a pipe
        fcntl.fcntl(stream.fileno(), set_size, size)


def first_line(stderr: bytes) -> str:
    text = stderr.decode("utf-8", errors="replace").strip()
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line.removeprefix("fatal: ").removeprefix("error: ")
    return "no error message"


def check_repository(path: Path) -> Path:
    """The top of the work tree (or the bare repository) at ``path``; clear errors otherwise."""
    check_readable_directory(path)
    bare = try_git_text(path, ["rev-parse", "--is-bare-repository"])
    if bare is None:
        raise NotAGitRepository(f"{path} is not a git repository (no .git found here or above)")
    if bare == "true":
        return path.resolve()
    top = try_git_text(path, ["rev-parse", "--show-toplevel"])
    return Path(top).resolve() if top else path.resolve()


def check_readable_directory(path: Path) -> None:
    """Clear errors for a path git cannot be asked about (missing, a file, unreadable, no git)."""
    if not path.exists():
        raise SourceError(f"cannot read {path}: no such file or directory")
    if not path.is_dir():
        raise NotAGitRepository(f"{path} is not a git repository (it is not a directory)")
    if not os.access(path, os.R_OK | os.X_OK):
        raise SourceError(f"cannot read {path}: permission denied")
    git_executable()
