"""Fill ``content_before``/``content_after`` of changed source files from their blob ids.

Only source files the symbol analyzer can parse, each at most 256 KB, and never binaries:
this is what symbol analysis needs, and bounding it keeps the sync's cost predictable.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from prdigest.models.pullrequest import FileChange, FileStatus
from prdigest.sources.git.cat_file import CatFile
from prdigest.sources.git.diff_files import ParsedFile

SOURCE_EXTENSIONS: frozenset[str] = frozenset(
    {
        ".py", ".pyi",
        ".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".inl",
        ".cu", ".cuh",
        ".go", ".rs",
        ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx",
    }
)  # fmt: skip


def wants_contents(path: str) -> bool:
    return PurePosixPath(path).suffix.lower() in SOURCE_EXTENSIONS


def fill_contents(reader: CatFile, files: list[ParsedFile]) -> int:
    """Read before/after texts of eligible files in place; returns how many blobs were read."""
    wanted: list[tuple[FileChange, str, str]] = []  # (file, attribute, blob id)
    for parsed in files:
        change = parsed.change
        if change.binary or not wants_contents(change.path):
            continue
        if parsed.old_blob is not None and change.status is not FileStatus.ADDED:
            wanted.append((change, "content_before", parsed.old_blob))
        if parsed.new_blob is not None and change.status is not FileStatus.REMOVED:
            wanted.append((change, "content_after", parsed.new_blob))
    texts = reader.read_texts([blob for _change, _attribute, blob in wanted])
    for (change, attribute, _blob), text in zip(wanted, texts, strict=True):
        setattr(change, attribute, text)
    return len(wanted)
