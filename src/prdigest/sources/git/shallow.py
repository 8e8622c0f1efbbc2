"""Shallow clones (``git clone --depth N``): which commits have their parents cut off.

git shows such a boundary commit as a root commit, so its diff would add the whole tree;
the source marks the PR it records as incomplete instead of believing that diff.
"""

from __future__ import annotations

from pathlib import Path

from prdigest.sources.git.runner import try_git_text


def shallow_boundary(repo: Path) -> frozenset[str] | None:
    """SHAs whose parents are missing from this shallow clone; None for a full clone."""
    if try_git_text(repo, ["rev-parse", "--is-shallow-repository"]) != "true":
        return None
    listed = try_git_text(repo, ["rev-parse", "--git-path", "shallow"])
    return read_shallow_list(repo, listed)


def read_shallow_list(cwd: Path, listed: str | None) -> frozenset[str]:
    """The SHAs in the shallow list git named (``--git-path shallow``, relative to ``cwd``)."""
    if not listed:
        return frozenset()
    path = Path(listed) if Path(listed).is_absolute() else cwd / listed
    try:
        text = path.read_text(encoding="ascii", errors="replace")
    except OSError:
        return frozenset()
    return frozenset(line.strip() for line in text.splitlines() if line.strip())
