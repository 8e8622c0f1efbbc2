"""Read objects through ONE long-lived ``git cat-file --batch`` process.

Used for file contents (before/after of changed source files) and for the commits of a
merged branch; one pipe round trip per object instead of one git process per object.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO

from prdigest.errors import SourceError
from prdigest.sources.git.runner import open_git_stream

MAX_CONTENT_BYTES = 256 * 1024
# Requests written before answers are read: small enough that neither pipe fills up.
_PIPELINE = 256


class CatFile:
    """``with CatFile(repo) as reader: reader.read("HEAD:README.md")``."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> CatFile:
        return self

    def __exit__(
        self, _type: type[BaseException] | None, _value: BaseException | None, _tb: TracebackType | None
    ) -> None:
        self.close()

    def _started(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            self._process = open_git_stream(self.repo, ["cat-file", "--batch"], with_stdin=True)
        return self._process

    def read(self, spec: str) -> tuple[str, bytes] | None:
        """(object type, raw bytes) of ``spec`` (an object id or ``REV:PATH``), None if missing."""
        return self.read_many([spec])[0]

    def read_many(self, specs: Sequence[str]) -> list[tuple[str, bytes] | None]:
        """Like ``read`` for several objects, pipelined: requests go out in groups, then
        answers are read, so the cost is not one pipe round trip per object."""
        results: list[tuple[str, bytes] | None] = []
        for start in range(0, len(specs), _PIPELINE):
            results.extend(self._read_group(specs[start : start + _PIPELINE]))
        return results

    def _read_group(self, specs: Sequence[str]) -> list[tuple[str, bytes] | None]:
        process = self._started()
        assert process.stdin is not None
        assert process.stdout is not None
        # A newline would split one request in two and desynchronise the answers.
        wanted = [spec if "\n" not in spec else "" for spec in specs]
        try:
            process.stdin.write("".join(f"{spec}\n" for spec in wanted).encode("utf-8"))
            process.stdin.flush()
            return [self._answer(process.stdout) for _spec in wanted]
        except (BrokenPipeError, OSError) as exc:
            raise SourceError(f"git cat-file stopped unexpectedly in {self.repo}") from exc

    def _answer(self, stdout: IO[bytes]) -> tuple[str, bytes] | None:
        header = stdout.readline()
        if not header:
            raise SourceError(f"git cat-file stopped unexpectedly in {self.repo}")
        parts = header.split()
        if len(parts) != 3 or not parts[2].isdigit():
            return None  # "<spec> missing", "<spec> ambiguous", an empty request
        size = int(parts[2])
        data = stdout.read(size + 1)  # the object and git's trailing newline
        return parts[1].decode("ascii"), data[:size]

    def read_text(self, spec: str, *, max_bytes: int = MAX_CONTENT_BYTES) -> str | None:
        """A blob as text (invalid UTF-8 replaced); None if missing, too big, or binary."""
        return blob_text(self.read(spec), max_bytes)

    def read_texts(self, specs: Sequence[str], *, max_bytes: int = MAX_CONTENT_BYTES) -> list[str | None]:
        return [blob_text(found, max_bytes) for found in self.read_many(specs)]

    def close(self) -> None:
        if self._process is not None:
            if self._process.stdin is not None:
                self._process.stdin.close()
            if self._process.stdout is not None:
                self._process.stdout.close()
            self._process.wait()
            self._process = None


def blob_text(found: tuple[str, bytes] | None, max_bytes: int = MAX_CONTENT_BYTES) -> str | None:
    if found is None or found[0] != "blob" or len(found[1]) > max_bytes or b"\x00" in found[1]:
        return None
    return found[1].decode("utf-8", errors="replace")


def read_file_contents(repo_path: Path, sha: str, paths: Iterable[str]) -> dict[str, str | None]:
    """Contents of ``paths`` at commit ``sha`` (None for absent, binary or >256 KB files)."""
    wanted = list(dict.fromkeys(paths))
    with CatFile(repo_path) as reader:
        return dict(zip(wanted, reader.read_texts([f"{sha}:{path}" for path in wanted]), strict=True))
