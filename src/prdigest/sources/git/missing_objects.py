"""Blobs a clone lacks (a partial clone offline, a damaged or size-limited copy), and the files
they are: ``git log -p`` stops at the first commit whose diff needs one.

Asked only after git failed that way (never on a healthy clone): one ``git log --raw`` of
the same commits (no blob is read for it) names every file version, one ``git cat-file
--batch-check`` says which the clone lacks. The walk then goes on with those paths left out
of the diff (`exclusions`), and each PR that changed one says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from prdigest.sources.git.diff_files import unquote_path
from prdigest.sources.git.runner import run_git

_ZERO = "0" * 40


@dataclass(frozen=True, slots=True)
class MissingBlobs:
    # Each first-parent commit's changed files whose content (before or after) is missing.
    by_commit: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def paths(self) -> list[str]:
        return sorted({path for paths in self.by_commit.values() for path in paths})

    def exclusions(self) -> list[str]:
        """The pathspec that leaves those files out of every diff (and keeps every commit)."""
        return [".", *(f":(exclude,literal){path}" for path in self.paths)] if self.by_commit else []


def find_missing_blobs(repo: Path, revision_range: str, extra: list[str]) -> MissingBlobs:
    listing = run_git(
        repo,
        [
            "log",
            "--first-parent",
            "--diff-merges=first-parent",
            "--raw",
            "--no-renames",
            "--no-abbrev",
            "--format=%x00%H",
            *extra,
            revision_range,
            "--",
        ],
    ).decode("utf-8", errors="replace")
    changes: list[tuple[str, str, str, str]] = []  # (commit, old id, new id, path)
    commit = ""
    for line in listing.split("\n"):
        if line.startswith("\x00"):
            commit = line[1:].strip()
        elif line.startswith(":") and "\t" in line:
            meta, _tab, path = line.partition("\t")
            fields = meta.split()
            if len(fields) >= 4:
                changes.append((commit, fields[2], fields[3], unquote_path(path)))
    ids = sorted({oid for _c, old, new, _p in changes for oid in (old, new) if oid != _ZERO})
    answer = run_git(repo, ["cat-file", "--batch-check"], stdin="\n".join(ids).encode() + b"\n")
    missing = {
        line.split()[0] for line in answer.decode("ascii", errors="replace").splitlines() if line.endswith(" missing")
    }
    by_commit: dict[str, list[str]] = {}
    for commit_sha, old, new, path in changes:
        if old in missing or new in missing:
            by_commit.setdefault(commit_sha, []).append(path)
    return MissingBlobs({sha: tuple(paths) for sha, paths in by_commit.items()})
