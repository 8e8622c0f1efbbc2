"""Open pull requests from ``refs/pull/N/head`` refs (present when a clone fetched them).

Each ref costs a few git calls (merge-base, diff, log); clones rarely hold thousands.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from prdigest.sources.git.log_stream import DIFF_FLAGS, LOG_FORMAT, RawCommit, split_records
from prdigest.sources.git.recognize import recognize
from prdigest.sources.git.runner import run_git

if TYPE_CHECKING:  # listing refs needs no models (pydantic): only reading one does
    from prdigest.sources.git.diff_files import ParsedPatch

_PULL_REF = re.compile(r"^refs/(?:remotes/[^/]+/)?pull/(?P<number>[1-9][0-9]{0,9})/head$")
# git's well-known empty tree: the base of a ref that shares no history with the branch.
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


@dataclass(frozen=True, slots=True)
class PullRef:
    number: int
    sha: str
    committed_at: datetime


@dataclass(frozen=True, slots=True)
class PullRefContent:
    base_sha: str | None
    commits: list[RawCommit]  # oldest first
    patch: ParsedPatch


def list_pull_refs(repo: Path) -> list[PullRef]:
    """Every ``refs/pull/N/head`` (also under a remote), newest head commit first."""
    listing = run_git(
        repo,
        ["for-each-ref", "--format=%(refname)%09%(objectname)%09%(committerdate:unix)", "refs/pull/", "refs/remotes/"],
    ).decode("utf-8", errors="replace")
    refs: dict[int, PullRef] = {}
    for line in listing.splitlines():
        name, _tab, rest = line.partition("\t")
        sha, _tab2, stamp = rest.partition("\t")
        match = _PULL_REF.match(name)
        if match is None or not stamp.strip().isdigit():
            continue
        number = int(match.group("number"))
        # refs/pull/N/head wins over a remote-tracking copy of the same number.
        if number not in refs or name.startswith("refs/pull/"):
            refs[number] = PullRef(number, sha, datetime.fromtimestamp(int(stamp), UTC))
    return sorted(refs.values(), key=lambda r: (r.committed_at, r.number), reverse=True)


def merged_pr_numbers(repo: Path, tip: str) -> set[int]:
    """Numbers of every PR recognized on the first-parent chain (messages only, no patches)."""
    listing = run_git(repo, ["log", "--first-parent", "--format=%x00%B", tip, "--"])
    numbers: set[int] = set()
    for message in listing.split(b"\x00"):
        found = recognize(message.decode("utf-8", errors="replace").strip("\n"))
        if found is not None:
            numbers.add(found.number)
    return numbers


def read_pull_ref(repo: Path, tip: str, ref: PullRef) -> PullRefContent:
    """The ref's diff against its merge-base with the branch (``tip...ref``), and its commits."""
    from prdigest.sources.git.diff_files import parse_patch

    log = run_git(repo, ["log", LOG_FORMAT, "--reverse", "--no-color", "--encoding=UTF-8", f"{tip}..{ref.sha}", "--"])
    commits = list(split_records(_single(log)))
    if commits and commits[0].parents:
        base: str | None = commits[0].parents[0]
        patch = run_git(repo, ["diff", *DIFF_FLAGS, f"{tip}...{ref.sha}", "--"])
    elif commits:  # history unrelated to the branch: everything is new
        base = None
        patch = run_git(repo, ["diff", *DIFF_FLAGS, EMPTY_TREE, ref.sha, "--"])
    else:  # already contained in the branch
        base, patch = ref.sha, b""
    return PullRefContent(base, commits, parse_patch(patch))


def _single(data: bytes) -> Iterator[bytes]:
    yield data
