"""Build real git repositories with a PR-shaped history, deterministically.

Used by the demo (``example_repo``), the benchmark and the tests. Times advance one hour
per commit from ``start`` unless a commit gives its own, identities are explicit, and the
user's git configuration is ignored, so the same calls build the same SHAs.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

Files = Mapping[str, str | bytes | None]  # path -> new content; None deletes the file
Identity = tuple[str, str]  # (name, email)

DEFAULT_AUTHOR: Identity = ("Ada Lovelace", "ada@example.com")
DEFAULT_START = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)


class RepoBuilder:
    """``RepoBuilder(path).commit({"a.py": "x = 1\\n"}, "Add a")`` — a repository on ``main``."""

    def __init__(
        self,
        path: Path,
        *,
        branch: str = "main",
        author: Identity = DEFAULT_AUTHOR,
        start: datetime = DEFAULT_START,
    ) -> None:
        self.path = path
        self.branch = branch
        self.author = author
        self.clock = start
        path.mkdir(parents=True, exist_ok=True)
        if not (path / ".git").exists():
            self.git("init", "-q", "-b", branch)

    # --- plumbing ------------------------------------------------------------------------

    def _env(self, author: Identity | None = None, date: datetime | None = None) -> dict[str, str]:
        name, email = author or self.author
        stamp = f"{int((date or self.clock).timestamp())} +0000"
        env = dict(os.environ)
        env.update(
            GIT_CONFIG_GLOBAL=os.devnull,
            GIT_CONFIG_NOSYSTEM="1",
            GIT_AUTHOR_NAME=name,
            GIT_AUTHOR_EMAIL=email,
            GIT_AUTHOR_DATE=stamp,
            GIT_COMMITTER_NAME=name,
            GIT_COMMITTER_EMAIL=email,
            GIT_COMMITTER_DATE=stamp,
        )
        return env

    def git(
        self, *args: str, author: Identity | None = None, date: datetime | None = None, stdin: bytes | None = None
    ) -> str:
        """Run git in the repository; raises ``subprocess.CalledProcessError`` on failure."""
        completed = subprocess.run(
            ["git", "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false", *args],
            cwd=self.path,
            env=self._env(author, date),
            input=stdin,
            capture_output=True,
            check=True,
        )
        return completed.stdout.decode("utf-8", errors="replace").strip()

    def _tick(self, date: datetime | None) -> datetime:
        if date is not None:
            self.clock = max(self.clock, date)
            return date
        self.clock += timedelta(hours=1)
        return self.clock

    def write(self, files: Files) -> None:
        for name, content in files.items():
            target = self.path / name
            if content is None:
                if target.exists():
                    target.unlink()
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_bytes(content.encode("utf-8"))

    def head(self, ref: str = "HEAD") -> str:
        return self.git("rev-parse", ref)

    # --- history -------------------------------------------------------------------------

    def commit(
        self,
        files: Files,
        message: str | bytes,
        *,
        author: Identity | None = None,
        date: datetime | None = None,
        allow_empty: bool = True,
    ) -> str:
        """Write ``files``, commit everything with ``message``; returns the new SHA."""
        when = self._tick(date)
        self.write(files)
        self.git("add", "-A")
        raw = message.encode("utf-8") if isinstance(message, str) else message
        flags = ["--allow-empty"] if allow_empty else []
        self.git("commit", "-q", "--no-verify", *flags, "-F", "-", author=author, date=when, stdin=raw)
        return self.head()

    def squash_pr(
        self,
        number: int,
        title: str,
        files: Files,
        *,
        body: str = "",
        author: Identity | None = None,
        co_authors: Sequence[Identity] = (),
        date: datetime | None = None,
    ) -> str:
        """A GitHub squash merge: one commit ``Title (#N)`` with the body and co-author trailers."""
        message = f"{title} (#{number})"
        trailers = "\n".join(f"Co-authored-by: {name} <{email}>" for name, email in co_authors)
        tail = "\n\n".join(part for part in (body.strip("\n"), trailers) if part)
        if tail:
            message += "\n\n" + tail
        return self.commit(files, message + "\n", author=author, date=date)

    def merge_pr(
        self,
        number: int,
        branch: str,
        title: str,
        files: Files,
        *,
        body: str = "",
        author: Identity | None = None,
        merger: Identity | None = None,
        extra_commits: Sequence[tuple[Files, str]] = (),
        date: datetime | None = None,
    ) -> str:
        """A GitHub merge commit ``Merge pull request #N from BRANCH`` over a topic branch.

        The branch gets one commit with ``files`` (message ``title``) and then each of
        ``extra_commits``; the merge message's body is ``title`` then ``body``, as GitHub writes.
        """
        self.git("checkout", "-q", "-b", branch)
        self.commit(files, title + "\n", author=author)
        for more_files, message in extra_commits:
            self.commit(more_files, message + "\n", author=author)
        self.git("checkout", "-q", self.branch)
        when = self._tick(date)
        message = f"Merge pull request #{number} from {branch}\n\n{title}\n"
        if body:
            message += "\n" + body.strip("\n") + "\n"
        self.git("merge", "-q", "--no-ff", "--no-edit", "-m", message, branch, author=merger or author, date=when)
        self.git("branch", "-q", "-D", branch)
        return self.head()

    def create_pull_ref(
        self,
        number: int,
        files: Files,
        *,
        message: str | None = None,
        author: Identity | None = None,
        date: datetime | None = None,
    ) -> str:
        """An open PR: a commit on top of the current branch, kept only as ``refs/pull/N/head``."""
        self.git("checkout", "-q", "-b", f"prdigest-tmp-pr-{number}")
        sha = self.commit(files, (message or f"Work for pull request {number}") + "\n", author=author, date=date)
        self.git("checkout", "-q", self.branch)
        self.git("branch", "-q", "-D", f"prdigest-tmp-pr-{number}")
        self.git("update-ref", f"refs/pull/{number}/head", sha)
        return sha

    def set_origin(self, url: str) -> None:
        """Set (or replace) the ``origin`` remote URL; nothing is fetched."""
        remotes = self.git("remote").split()
        self.git("remote", "set-url" if "origin" in remotes else "add", "origin", url)
