"""Whether a PR changes lines an earlier PR wrote: git blame of the files both touched.

A PR that names an earlier merged one and rewrites lines that one wrote works on what it
did ("HTML-escape everything in the debugger (see #601)" editing #601's debugger lines):
git proves the link the words leave open. Only the files both PRs changed are blamed, in
the later PR's parent, and only a few of them (the pass may ask for many pairs).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from prdigest.sources.git.blame import blame_changed_lines

_MAX_FILES = 4
_MAX_LINES = 200
_LOOKED_UP = 3  # blamed commits mapped to their PR, most lines first


def lines_written_by(
    clone: Path,
    commit: str,
    paths: Sequence[str],
    target: int,
    number_of: Callable[[str, bool], int | None],
) -> int:
    """How many of the lines `commit` removes or changes in `paths` were last written by PR
    `target`; 0 when git cannot say. `number_of(sha, look_up)` maps a blamed commit to its
    PR, searching the records only when `look_up` (for the commits with the most lines)."""
    changed = blame_changed_lines(clone, commit, list(paths), max_files=_MAX_FILES, max_lines=_MAX_LINES)
    if changed is None:
        return 0
    by_commit: Counter[str] = Counter(line.commit for _path, line in changed.lines if line.commit is not None)
    ranked = by_commit.most_common()
    return sum(lines for index, (sha, lines) in enumerate(ranked) if number_of(sha, index < _LOOKED_UP) == target)
