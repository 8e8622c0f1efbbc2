"""Fill ``content_before``/``content_after`` of changed source files from their blob ids.

Only source files the symbol analyzer can parse, the dependency manifests whose groups only
the whole file tells (``pyproject.toml``, ``setup.cfg``), requirement files (whether one installs
the project itself, ``-e .``, is often outside the hunks), and the images, scripts and CI
workflows whose installs the dependency analyzer reads, each at most 256 KB, and never
binaries: this is what the analyzers need, and bounding it keeps the sync's cost predictable.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache

from prdigest.models.plain_records import PlainFileChange as FileChange
from prdigest.models.states import FileStatus
from prdigest.sources.git.blob_pipeline import BlobPipeline
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
# Manifests read whole: which group (dependencies, an extra, build-system) a line belongs to
# is not in its diff hunk.
# go.mod, Cargo.toml and package.json: TOML and JSON are read as documents (and a go.mod's
# require block header is often outside the hunks).
MANIFEST_NAMES: frozenset[str] = frozenset({"pyproject.toml", "setup.cfg", "go.mod", "Cargo.toml", "package.json"})
_CI_FOLDERS = frozenset({".github", "workflows", ".buildkite", ".circleci", "ci"})
# Texts kept for a later commit that will need them again (see ``PipelinedContents``).
REUSE_BUDGET_BYTES = 32 * 1024 * 1024

BEFORE = "content_before"
AFTER = "content_after"


def _installs_packages(path: str, name: str) -> bool:
    """Images, scripts and CI workflows: whether a package is still installed elsewhere in the
    file (outside the diff's hunks) decides if a removed or added install is a change at all."""
    lower = name.lower()
    if lower.startswith(("dockerfile", "containerfile")) or lower.endswith((".dockerfile", ".sh", ".bash")):
        return True
    return lower.endswith((".yml", ".yaml")) and any(part in _CI_FOLDERS for part in path.lower().split("/")[:-1])


def _requirements_file(path: str, name: str) -> bool:
    lower = name.lower()
    if not lower.endswith((".txt", ".in")):
        return False
    return "requirements" in lower or lower.startswith("constraints") or "/requirements/" in f"/{path.lower()}"


@lru_cache(maxsize=16384)  # a history touches the same paths again and again
def wants_contents(path: str) -> bool:
    # PurePosixPath(path).suffix without building a path object per file (git paths are
    # normalized: no trailing slash, no "." components).
    name = path.rpartition("/")[2]
    if name in MANIFEST_NAMES or _installs_packages(path, name) or _requirements_file(path, name):
        return True
    dot = name.rfind(".")
    return 0 < dot < len(name) - 1 and name[dot:].lower() in SOURCE_EXTENSIONS


def wanted_blobs(files: list[ParsedFile]) -> list[tuple[FileChange, str, str]]:
    """(file, attribute, blob id) of every text to read, in file order."""
    wanted: list[tuple[FileChange, str, str]] = []
    for parsed in files:
        change = parsed.change
        if change.binary or not wants_contents(change.path):
            continue
        if parsed.old_blob is not None and change.status is not FileStatus.ADDED:
            wanted.append((change, BEFORE, parsed.old_blob))
        if parsed.new_blob is not None and change.status is not FileStatus.REMOVED:
            wanted.append((change, AFTER, parsed.new_blob))
    return wanted


def fill_contents(reader: CatFile, files: list[ParsedFile]) -> int:
    """Read before/after texts of eligible files in place; returns how many blobs were read."""
    wanted = wanted_blobs(files)
    texts = reader.read_texts([blob for _change, _attribute, blob in wanted])
    for (change, attribute, _blob), text in zip(wanted, texts, strict=True):
        setattr(change, attribute, text)
    return len(wanted)


@dataclass(slots=True)
class ContentTicket:
    """What one commit asked for: texts to take from the pipe, and texts another commit reads."""

    from_pipe: list[tuple[FileChange, str, str]] = field(default_factory=list)
    from_cache: list[tuple[FileChange, str, str]] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.from_pipe) + len(self.from_cache)


class PipelinedContents:
    """Contents for a newest-first walk: ``ask`` when a commit is parsed, ``fill`` later.

    Walking newest first, a file's "before" text is usually the "after" text of the next
    older commit that touched it. Those texts are kept (up to ``budget`` bytes, oldest
    dropped first) and handed to that commit instead of asking git again; a text dropped
    in between is read through ``fallback``, so the budget bounds memory, never results.
    """

    def __init__(self, pipeline: BlobPipeline, fallback: CatFile, *, budget: int = REUSE_BUDGET_BYTES) -> None:
        self.pipeline = pipeline
        self.fallback = fallback
        self.budget = budget
        self._kept: OrderedDict[str, str | None] = OrderedDict()
        self._kept_bytes = 0
        self._in_flight: dict[str, int] = {}  # "before" blobs asked for, not yet filled

    def ask(self, files: list[ParsedFile]) -> ContentTicket:
        ticket = ContentTicket()
        for wanted in wanted_blobs(files):
            blob = wanted[2]
            if wanted[1] == AFTER and (blob in self._kept or blob in self._in_flight):
                ticket.from_cache.append(wanted)
                continue
            ticket.from_pipe.append(wanted)
            if wanted[1] == BEFORE:
                self._in_flight[blob] = self._in_flight.get(blob, 0) + 1
        self.pipeline.request([blob for _change, _attribute, blob in ticket.from_pipe])
        return ticket

    def fill(self, ticket: ContentTicket) -> int:
        """Set the texts of a ticket (tickets are filled in the order they were asked)."""
        answers = self.pipeline.take(len(ticket.from_pipe))
        for (change, attribute, blob), answer in zip(ticket.from_pipe, answers, strict=True):
            text = answer if isinstance(answer, str) else None  # e.g. a submodule's commit
            setattr(change, attribute, text)
            if attribute == BEFORE:
                self._keep(blob, text)
        missing: list[tuple[FileChange, str, str]] = []
        for change, attribute, blob in ticket.from_cache:
            if blob in self._kept:
                text = self._kept.pop(blob)
                self._kept_bytes -= len(text or "")
                setattr(change, attribute, text)
            else:
                missing.append((change, attribute, blob))
        if missing:
            for (change, attribute, _blob), text in zip(
                missing, self.fallback.read_texts([blob for _c, _a, blob in missing]), strict=True
            ):
                setattr(change, attribute, text)
        return ticket.count

    def _keep(self, blob: str, text: str | None) -> None:
        left = self._in_flight.get(blob, 0) - 1
        if left > 0:
            self._in_flight[blob] = left
        else:
            self._in_flight.pop(blob, None)
        if blob in self._kept:
            return
        self._kept[blob] = text
        self._kept_bytes += len(text or "")
        while self._kept_bytes > self.budget and self._kept:
            _old, dropped = self._kept.popitem(last=False)
            self._kept_bytes -= len(dropped or "")
