"""Where a repository's history is: the clone it was last synced from, kept as sync state.

Work after the sync that needs git itself (blaming a fix's lines) reads the clone again;
the store keeps its path under its own source name, apart from the sync's resume state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

CLONE_STATE = "git-clone"


def clone_state(repo: Path) -> dict[str, Any]:
    return {"path": str(repo.resolve())}


def clone_from_state(state: dict[str, Any]) -> Path | None:
    """The clone a saved state names, if it is still a git repository."""
    path = state.get("path")
    if not isinstance(path, str):
        return None
    clone = Path(path)
    return clone if (clone / ".git").exists() or (clone / "HEAD").is_file() else None
