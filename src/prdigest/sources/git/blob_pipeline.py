"""Blob texts (and commit objects) through ONE ``git cat-file --batch``, asked for ahead.

The caller asks for a commit's blob ids as soon as its patch is parsed and takes the texts
a few commits later, so git looks objects up while Python parses, instead of one pipe round
trip per commit. Requests are written in groups: every write wakes git up, and on a busy
machine each wake-up can cost the caller its CPU slice.

No deadlock and no thread: before writing more requests, answers are read (and kept) until
at most ``_IN_PIPE`` requests are unanswered, so the requests waiting in git's stdin always
fit in the smallest pipe buffer Linux hands out (one 4 KB page) and our write never blocks
while git waits for us to read.
"""

from __future__ import annotations

import contextlib
import subprocess
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO

from prdigest.errors import SourceError
from prdigest.sources.git.cat_file import MAX_CONTENT_BYTES
from prdigest.sources.git.runner import open_git_stream, widen_pipe

_IN_PIPE = 64  # unanswered requests in flight: 64 x 41 bytes < 4 KB
_SEND_AT = 32  # requests gathered before one write
_READ_SIZE = 1 << 20
_COMPACT_AT = 1 << 20  # parsed bytes dropped from the buffer's front past this


class BlobPipeline:
    """``with BlobPipeline(repo) as blobs: blobs.request(ids); ...; texts = blobs.take(len(ids))``."""

    def __init__(self, repo: Path, *, max_bytes: int = MAX_CONTENT_BYTES) -> None:
        self.repo = repo
        self.max_bytes = max_bytes
        self.outstanding = 0  # requested, not yet taken
        self._unsent: list[str] = []
        self._in_pipe = 0  # written, answer not read yet
        self._received: deque[str | bytes | None] = deque()  # answers read, not yet taken
        self._buffer = bytearray()  # git's output read but not parsed yet, from ``_at``
        self._at = 0
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> BlobPipeline:
        return self

    def __exit__(
        self, _type: type[BaseException] | None, _value: BaseException | None, _tb: TracebackType | None
    ) -> None:
        self.close()

    def request(self, blob_ids: Sequence[str]) -> None:
        """Ask for these objects (hex ids); their answers come back, in order, from ``take``."""
        # Ids come from git's own output; anything else would desynchronise the answers.
        self._unsent.extend(blob if blob.isalnum() else "0" for blob in blob_ids)
        self.outstanding += len(blob_ids)
        if len(self._unsent) >= _SEND_AT:
            self._send()

    def take(self, count: int) -> list[str | bytes | None]:
        """The next ``count`` answers: a blob's text, a commit's raw bytes, or None (missing,
        binary, too large, or another kind of object)."""
        if count <= 0:
            return []
        if len(self._received) + self._in_pipe < count:
            self._send()
        while len(self._received) < count:
            self._receive()
        self.outstanding -= count
        return [self._received.popleft() for _ in range(count)]

    def _send(self) -> None:
        process = self._started()
        assert process.stdin is not None
        unsent, self._unsent = self._unsent, []
        try:
            for start in range(0, len(unsent), _SEND_AT):
                group = unsent[start : start + _SEND_AT]
                while self._in_pipe + len(group) > _IN_PIPE:
                    self._receive()
                process.stdin.write("".join(f"{blob}\n" for blob in group).encode("ascii", errors="replace"))
                process.stdin.flush()
                self._in_pipe += len(group)
        except (BrokenPipeError, OSError) as exc:
            raise SourceError(f"git cat-file stopped unexpectedly in {self.repo}") from exc

    def _receive(self) -> None:
        if self._in_pipe == 0:
            raise SourceError("internal error: waiting for a git cat-file answer never asked for")
        process = self._started()
        assert process.stdout is not None
        try:
            answer = self._answer(process.stdout)
        except (OSError, ValueError) as exc:
            raise SourceError(f"git cat-file stopped unexpectedly in {self.repo}") from exc
        self._in_pipe -= 1
        self._received.append(answer)

    def _answer(self, stdout: IO[bytes]) -> str | bytes | None:
        buffer = self._buffer
        end = buffer.find(b"\n", self._at)
        while end < 0:
            self._read_more(stdout)
            end = buffer.find(b"\n", self._at)
        parts = bytes(buffer[self._at : end]).split()
        self._at = end + 1
        if len(parts) != 3 or not parts[2].isdigit():
            return None  # "<id> missing", "<id> ambiguous"
        size = int(parts[2])
        if parts[1] not in (b"commit", b"blob") or size > self.max_bytes:
            self._skip(stdout, size + 1)
            return None
        # The object and git's trailing newline.
        while len(buffer) - self._at < size + 1:
            self._read_more(stdout)
        start, self._at = self._at, self._at + size + 1
        if parts[1] == b"commit":
            return bytes(buffer[start : start + size])
        if buffer.find(b"\x00", start, start + size) >= 0:
            return None
        return buffer[start : start + size].decode("utf-8", errors="replace")

    def _skip(self, stdout: IO[bytes], size: int) -> None:
        """Pass over ``size`` bytes without holding them (a large object is read in chunks)."""
        buffered = min(size, len(self._buffer) - self._at)
        self._at += buffered
        size -= buffered
        while size > 0:
            chunk = stdout.read(min(size, _READ_SIZE))
            if not chunk:
                raise ValueError("git cat-file answer cut short")
            size -= len(chunk)

    def _read_more(self, stdout: IO[bytes]) -> None:
        """Append what git has written so far (one read for many answers: each read lets
        another thread take the interpreter, and getting it back can cost a time slice)."""
        if self._at > _COMPACT_AT:
            del self._buffer[: self._at]
            self._at = 0
        chunk = stdout.read1(_READ_SIZE)  # type: ignore[attr-defined]
        if not chunk:
            raise ValueError("git cat-file ended")
        self._buffer += chunk

    def _started(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            self._process = open_git_stream(self.repo, ["cat-file", "--batch"], with_stdin=True)
            assert self._process.stdout is not None
            # Room for git to answer every request in flight without waiting for us to read.
            widen_pipe(self._process.stdout)
        return self._process

    def close(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):  # git already gone
                    stream.close()
        process.wait()
