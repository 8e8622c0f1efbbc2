"""The commits a merge commit brought in: its second parent's history down to the main line.

Read through the shared ``cat-file --batch`` process (one pipe round trip per commit), and
stopped at the first-parent chain of the default branch, whose SHAs are listed once by
``git rev-list --first-parent`` (20 bytes each) the first time a merge PR is seen.
"""

from __future__ import annotations

import codecs
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from prdigest.models.plain_records import PlainCommit
from prdigest.sources.git.cat_file import CatFile
from prdigest.sources.git.runner import run_git, try_git_text
from prdigest.sources.git.trailers import co_authors

# GitHub lists at most 250 commits per pull request; a longer walk means a odd history.
MAX_BRANCH_COMMITS = 250


@dataclass(frozen=True, slots=True)
class CommitObject:
    sha: str
    parents: tuple[str, ...]
    author_name: str
    author_email: str
    authored_at: datetime | None
    committed_at: datetime | None
    message: str

    def to_commit(self) -> PlainCommit:
        return PlainCommit(
            sha=self.sha,
            author=self.author_name,
            author_email=self.author_email or None,
            co_authors=co_authors(self.message),
            committed_at=self.committed_at,
            message=self.message,
        )


class FirstParentChain:
    """Membership test for the default branch's first-parent chain, loaded on first use."""

    def __init__(self, repo: Path, tip: str, listed: Sequence[str] = ()) -> None:
        """``listed``: the chain's SHAs when already known (the collisions' listing of the
        same tip): then no second walk of the history is waited for."""
        self.repo = repo
        self.tip = tip
        self._listed = listed
        self._members: set[bytes] | None = None

    def __contains__(self, sha: str) -> bool:
        if self._members is None:
            if self._listed:
                self._members = {bytes.fromhex(line) for line in self._listed}
            else:
                listing = run_git(self.repo, ["rev-list", "--first-parent", self.tip])
                self._members = {bytes.fromhex(line.decode("ascii")) for line in listing.split()}
        try:
            return bytes.fromhex(sha) in self._members
        except ValueError:
            return False


def parse_commit_object(sha: str, raw: bytes) -> CommitObject:
    """A raw commit object (``cat-file``) into its fields; unknown headers are skipped."""
    header, _sep, message = raw.partition(b"\n\n")
    parents: list[str] = []
    author_name = author_email = ""
    authored_at = committed_at = None
    encoding = "utf-8"
    for line in header.split(b"\n"):
        key, _space, value = line.partition(b" ")
        if key == b"parent":
            parents.append(value.decode("ascii", errors="replace"))
        elif key == b"author":
            author_name, author_email, authored_at = _identity(value)
        elif key == b"committer":
            committed_at = _identity(value)[2]
        elif key == b"encoding":
            encoding = value.decode("ascii", errors="replace").strip() or "utf-8"
    try:
        codecs.lookup(encoding)
    except LookupError:
        encoding = "utf-8"
    text = message.decode(encoding, errors="replace").strip("\n")
    return CommitObject(sha, tuple(parents), author_name, author_email, authored_at, committed_at, text)


def _identity(value: bytes) -> tuple[str, str, datetime | None]:
    """``Name <email> 1700000000 +0100`` → (name, email, time)."""
    name, _lt, rest = value.partition(b" <")
    email, _gt, when = rest.partition(b"> ")
    stamp = when.split(b" ", 1)[0]
    try:
        moment: datetime | None = datetime.fromtimestamp(int(stamp), UTC)
    except (ValueError, OverflowError, OSError):
        moment = None
    return name.decode("utf-8", errors="replace"), email.decode("utf-8", errors="replace"), moment


def branch_commits(
    reader: CatFile,
    chain: FirstParentChain,
    head: str,
    *,
    head_object: bytes | None = None,
    base: str | None = None,
) -> list[CommitObject]:
    """Commits reachable from ``head`` and not from ``base`` (the merge's first parent),
    oldest first (at most 250).

    Walked through ``cat-file`` down to the first-parent ``chain``, which is exact for a
    branch without merges. A branch that merged other history (its fork's main line, a
    maintenance branch) reaches commits that are on the main line only through other merges,
    not through ``chain``: those are no part of this PR, so the walk is then narrowed to
    ``git rev-list base..head`` (one process, only for such branches).
    ``head_object``: the head's raw commit, when the caller already read it (pipelined).
    """
    found = _walk(reader, chain, head, head_object)
    if base is None or not any(len(c.parents) > 1 for c in found.values()):
        return _oldest_first(found.values())
    listing = try_git_text(chain.repo, ["rev-list", f"--max-count={MAX_BRANCH_COMMITS}", head, f"^{base}"])
    if listing is None:
        return _oldest_first(found.values())
    kept: list[CommitObject] = []
    for sha in listing.split():
        commit = found.get(sha)
        if commit is None:
            obj = reader.read(sha)
            if obj is None or obj[0] != "commit":
                continue
            commit = parse_commit_object(sha, obj[1])
        kept.append(commit)
    return _oldest_first(kept)


def _oldest_first(commits: Iterable[CommitObject]) -> list[CommitObject]:
    return sorted(commits, key=lambda c: (c.committed_at or datetime.min.replace(tzinfo=UTC), c.sha))


def _walk(reader: CatFile, chain: FirstParentChain, head: str, head_object: bytes | None) -> dict[str, CommitObject]:
    found: dict[str, CommitObject] = {}
    queue = deque([head])
    while queue and len(found) < MAX_BRANCH_COMMITS:
        sha = queue.popleft()
        if sha in found or sha in chain:
            continue
        obj = ("commit", head_object) if sha == head and head_object is not None else reader.read(sha)
        if obj is None or obj[0] != "commit":
            continue
        commit = parse_commit_object(sha, obj[1])
        found[sha] = commit
        queue.extend(commit.parents)
    return found
