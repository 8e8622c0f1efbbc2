"""The texts of a tree's files that a predicate selects, read at one commit of a clone."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from prdigest.sources.git.cat_file import CatFile, blob_text
from prdigest.sources.git.runner import run_git


def tree_texts(clone: Path, commit: str, wanted: Callable[[str], bool], *, max_bytes: int) -> dict[str, str]:
    """Every blob of ``commit``'s tree whose path ``wanted`` selects and that is text of at
    most ``max_bytes`` (binary, larger and submodule entries are left out)."""
    listing = run_git(clone, ["ls-tree", "-r", "-z", "--long", commit])
    chosen: list[tuple[str, str]] = []  # (path, blob id)
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        fields = meta.split()
        if len(fields) != 4 or fields[1] != b"blob" or not fields[3].isdigit() or int(fields[3]) > max_bytes:
            continue
        path = raw_path.decode("utf-8", errors="replace")
        if wanted(path):
            chosen.append((path, fields[2].decode("ascii")))
    with CatFile(clone) as reader:
        found = reader.read_many([blob for _path, blob in chosen])
    texts: dict[str, str] = {}
    for (path, _blob), item in zip(chosen, found, strict=True):
        text = blob_text(item, max_bytes)
        if text is not None:
            texts[path] = text
    return texts
