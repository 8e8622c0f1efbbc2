"""Shallow clones (``git clone --depth N``): which commits have their parents cut off.

git shows such a boundary commit as a root commit, so its diff would add the whole tree;
the source marks the PR it records as incomplete instead of believing that diff.
"""

from __future__ import annotations

from pathlib import Path


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
