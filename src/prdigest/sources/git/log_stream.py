"""Stream ONE ``git log -p`` and split it into commits, holding one commit at a time.

Each record starts with NUL (``%x00``), which git never emits inside a text patch (a file
containing NUL is shown as ``Binary files ... differ``) and commit messages cannot contain.
Fields are separated by ``%x1f`` and the message ends with ``%x1e``; the patch follows.
"""

from __future__ import annotations

import io
import queue
import re
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from prdigest.errors import SourceError
from prdigest.sources.git.runner import first_line, open_git_stream, try_git_bytes, widen_pipe

LOG_FORMAT = "--format=%x00%H%x1f%an%x1f%ae%x1f%at%x1f%ct%x1f%P%x1f%B%x1e"
# How every diff is asked for (log and refs alike): plain, unabridged, renames found.
DIFF_FLAGS: tuple[str, ...] = (
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "-M",
    "--full-index",
    "--src-prefix=a/",
    "--dst-prefix=b/",
)
# Flags shared by the sync and the benchmark's bare baseline, so both do the same git work.
PATCH_FLAGS: tuple[str, ...] = ("-p", "--first-parent", "--diff-merges=first-parent", *DIFF_FLAGS, "--encoding=UTF-8")
_READ_SIZE = 1 << 20
# A commit id's length in hex: SHA-1 or SHA-256 repositories.
_ID_LENGTHS = (40, 64)
_LONGEST_ID = 64
# git's words when a diff needs an object the clone does not have.
_UNREADABLE = re.compile(r"unable to read ([0-9a-f]{40,64})")
# git cannot diff a commit whose blobs the clone lacks (a partial clone offline, a damaged copy).
_MISSING_OBJECT_HINT = (
    " (the clone lacks that object: a partial clone or a damaged repository; `git fsck` lists what is "
    "missing, and a full `git fetch` or a fresh clone restores it; the pull requests read before it are kept)"
)
_QUEUED_CHUNKS = 16


@dataclass(frozen=True, slots=True)
class RawCommit:
    """One commit as git printed it; the patch stays bytes until a PR needs it."""

    sha: str
    author_name: str
    author_email: str
    authored_at: datetime
    committed_at: datetime
    parents: tuple[str, ...]
    message: str
    patch: bytes


def log_command(revision_range: str, extra: Sequence[str] = (), pathspec: Sequence[str] = ()) -> list[str]:
    return ["log", LOG_FORMAT, *PATCH_FLAGS, *extra, revision_range, "--", *pathspec]


def iter_log(repo: Path, revision_range: str, extra: Sequence[str] = ()) -> Iterator[RawCommit]:
    """Commits of ``git log -p --first-parent`` newest first; git is stopped if we stop early."""
    stream = LogStream(repo, revision_range, extra)
    try:
        yield from stream.commits()
    finally:
        stream.close()


class LogStream:
    """A running ``git log -p`` whose output a helper thread reads ahead of the parser.

    git starts at construction, so it can work while the caller still prepares (imports,
    database migrations), and it never waits for a busy parser: its output is queued, at most
    ``_QUEUED_CHUNKS`` reads (each at most one pipe's worth), so memory stays flat.
    """

    def __init__(
        self, repo: Path, revision_range: str, extra: Sequence[str] = (), pathspec: Sequence[str] = ()
    ) -> None:
        self.repo = repo
        self.revision_range = revision_range
        self.extra = tuple(extra)
        self.pathspec = tuple(pathspec)
        # When git stopped on an object the clone lacks: that object, and the commit whose
        # diff it was writing (the first not given), for the caller to go on from.
        self.unreadable: str | None = None
        self.stopped_at: str | None = None
        self._process = open_git_stream(repo, log_command(revision_range, extra, pathspec))
        assert self._process.stdout is not None
        widen_pipe(self._process.stdout)
        self._chunks: queue.Queue[bytes | BaseException | None] = queue.Queue(maxsize=_QUEUED_CHUNKS)
        self._stop = threading.Event()
        self._reader = threading.Thread(target=self._read_ahead, name="git-log-reader", daemon=True)
        self._reader.start()
        self._finished = False

    def commits(self) -> Iterator[RawCommit]:
        """The commits, once; a failing git is a SourceError after its last whole commit.

        Each record is given once the next one begins (or git ended well): the record git was
        writing when it failed may be cut short, so it is never given."""
        held: RawCommit | None = None
        for record in split_records(self._queued_chunks()):
            if held is not None:
                yield held
            held = record
        self._finished = True
        code, stderr = self._stop_git()
        if code != 0:
            said = first_line(stderr)
            self.unreadable = unreadable_object(said)
            if held is not None and self._whole(held):
                # git stopped before the next commit began: that one is where to go on from
                self.stopped_at = held.parents[0] if held.parents else None
                yield held
            elif held is not None:
                self.stopped_at = held.sha
            hint = _MISSING_OBJECT_HINT if self.unreadable else ""
            raise SourceError(f"git log failed in {self.repo}: {said}{hint}")
        if held is not None:
            yield held

    def _whole(self, record: RawCommit) -> bool:
        """Whether the last record before git failed is whole: its own diff, asked for again
        alone, is the same (when git died inside it, asking again fails or differs)."""
        again = try_git_bytes(
            self.repo, ["log", "-1", LOG_FORMAT, *PATCH_FLAGS, *self.extra, record.sha, "--", *self.pathspec]
        )
        if again is None or not again.startswith(b"\x00"):
            return False
        return parse_record(again[1:]).patch.rstrip(b"\n") == record.patch.rstrip(b"\n")

    def _queued_chunks(self) -> Iterator[bytes]:
        while (chunk := self._chunks.get()) is not None:
            if isinstance(chunk, BaseException):
                raise SourceError(f"cannot read git log output in {self.repo}: {chunk}")
            yield chunk

    def _read_ahead(self) -> None:
        stdout = self._process.stdout
        assert isinstance(stdout, io.BufferedReader)
        try:
            # read1: what git has written so far, not "wait for a full megabyte".
            while chunk := stdout.read1(_READ_SIZE):
                if not self._offer(chunk):
                    return
        except (OSError, ValueError) as exc:
            self._offer(exc)
            return
        self._offer(None)

    def _offer(self, item: bytes | BaseException | None) -> bool:
        while not self._stop.is_set():
            try:
                self._chunks.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def _stop_git(self) -> tuple[int, bytes]:
        process = self._process
        if not self._finished:
            process.kill()
        self._stop.set()
        self._reader.join()
        assert process.stdout is not None
        assert process.stderr is not None
        process.stdout.close()
        stderr = process.stderr.read()
        process.stderr.close()
        return process.wait(), stderr

    def close(self) -> None:
        """Stop git (if still running) and the reader; safe to call more than once."""
        if self._process.returncode is None:
            self._stop_git()


def split_records(chunks: Iterator[bytes]) -> Iterator[RawCommit]:
    """Cut a byte stream into commit records on NUL; only the current record is buffered.

    A record starts with NUL, a commit id and a field separator; a NUL anywhere else is the
    content of a patch (a file git took for text with a NUL past its first 8,000 bytes) and
    does not cut."""
    pending = bytearray()
    scanned = 1  # where to resume looking for the next NUL: never rescan a huge commit
    for chunk in chunks:
        pending += chunk
        start = 0
        while True:
            end = pending.find(b"\x00", max(start + 1, scanned))
            if end < 0:
                scanned = len(pending)  # nothing left to look at in what is buffered
                break
            starts = _record_start(pending, end)
            if starts is None:  # too few bytes after it yet to tell: look again with more
                scanned = end
                break
            scanned = end + 1
            if not starts:
                continue
            if pending[start] == 0:
                yield parse_record(bytes(pending[start + 1 : end]))
            start = end
        del pending[:start]
        scanned = max(1, scanned - start)
    if pending and pending[0] == 0:
        yield parse_record(bytes(pending[1:]))


def _record_start(data: bytearray, at: int) -> bool | None:
    """Whether the NUL at `at` begins a record (None: the bytes after it are not there yet)."""
    head = data[at + 1 : at + 2 + _LONGEST_ID]
    separator = head.find(b"\x1f")
    if separator < 0:
        return None if len(head) <= _LONGEST_ID and not head.strip(b"0123456789abcdef") else False
    return separator in _ID_LENGTHS and not head[:separator].strip(b"0123456789abcdef")


def parse_record(record: bytes) -> RawCommit:
    """One record (without its leading NUL) into a RawCommit; malformed input is a SourceError."""
    head, sep, rest = record.partition(b"\x1e")
    fields = head.split(b"\x1f", 6)
    if not sep or len(fields) != 7:
        raise SourceError("unexpected git log output (a commit record without its fields)")
    sha, name, email, authored, committed, parents, message = fields
    try:
        authored_at = datetime.fromtimestamp(int(authored), UTC)
        committed_at = datetime.fromtimestamp(int(committed), UTC)
    except (ValueError, OverflowError, OSError) as exc:
        raise SourceError(f"unexpected git log output (bad timestamp in {sha[:12]!r})") from exc
    return RawCommit(
        sha=sha.decode("ascii", errors="replace"),
        author_name=name.decode("utf-8", errors="replace"),
        author_email=email.decode("utf-8", errors="replace"),
        authored_at=authored_at,
        committed_at=committed_at,
        parents=tuple(parents.decode("ascii", errors="replace").split()),
        message=message.decode("utf-8", errors="replace").strip("\n"),
        patch=rest.lstrip(b"\n"),
    )


def unreadable_object(message: str) -> str | None:
    """The object id git could not read, when that is why it stopped."""
    found = _UNREADABLE.search(message)
    return found.group(1) if found else None
