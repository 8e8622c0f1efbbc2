"""Turn one commit's ``git log -p`` patch into per-file records (`PlainFileChange`).

The patch is cut on ``diff --git`` headers; each file's header (everything before its first
hunk) goes through ``unidiff`` for status, paths and the binary flag, and +/- lines are
counted on the hunk bodies with ``bytes.count``: building unidiff's per-line objects for
every hunk of a long history would cost several times git's own time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from unidiff.constants import DEV_NULL, RE_DIFF_GIT_HEADER
from unidiff.errors import UnidiffParseError
from unidiff.patch import PatchSet

from prdigest.models.plain_records import PlainFileChange
from prdigest.models.states import FileStatus

_FILE_HEADER = b"diff --git "
_INDEX_LINE = re.compile(rb"^index ([0-9a-f]+)\.\.([0-9a-f]+)", re.MULTILINE)
# Extended header lines git writes for a text change that is not a copy (see plain_header_facts).
_PLAIN_EXTENDED_LINE = re.compile(
    r"(?:index [0-9a-f]+\.\.[0-9a-f]+(?: \d+)?|(?:new file|deleted file|old|new) mode \d+"
    r"|(?:dis)?similarity index \d+%|rename (?:from|to) .+)\Z"
)
_OCTAL_ESCAPE = re.compile(r"\\([0-7]{3}|.)")
_C_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "r": "\r", "v": "\v"}


@dataclass(slots=True)
class ParsedFile:
    """A file change plus what reading its contents later needs (blob ids)."""

    change: PlainFileChange
    old_blob: str | None = None
    new_blob: str | None = None
    had_invalid_utf8: bool = False


@dataclass(slots=True)
class ParsedPatch:
    files: list[ParsedFile] = field(default_factory=list)

    @property
    def invalid_utf8_files(self) -> int:
        return sum(1 for f in self.files if f.had_invalid_utf8)


def split_file_patches(patch: bytes) -> list[bytes]:
    """Per-file chunks, each starting with ``diff --git``; text before the first is dropped."""
    if not patch:
        return []
    chunks: list[bytes] = []
    position = 0 if patch.startswith(_FILE_HEADER) else patch.find(b"\n" + _FILE_HEADER)
    if position < 0:
        return []
    if position > 0:
        position += 1
    while position >= 0:
        following = patch.find(b"\n" + _FILE_HEADER, position + 1)
        end = len(patch) if following < 0 else following + 1
        chunks.append(patch[position:end])
        position = following + 1 if following >= 0 else -1
    return chunks


def parse_patch(patch: bytes) -> ParsedPatch:
    """Every file of a commit's patch; an empty commit gives no files."""
    return ParsedPatch([parse_file_patch(chunk) for chunk in split_file_patches(patch)])


def decode_patch(raw: bytes) -> tuple[str, bool]:
    """UTF-8 text and whether bytes had to be replaced (U+FFFD marks each one)."""
    try:
        return raw.decode("utf-8"), False
    except UnicodeDecodeError:
        return raw.decode("utf-8", errors="replace"), True


def parse_file_patch(raw: bytes) -> ParsedFile:
    """One ``diff --git`` chunk into a ParsedFile; a header unidiff rejects still yields a record."""
    hunks_at = raw.find(b"\n@@ ")
    header = raw if hunks_at < 0 else raw[: hunks_at + 1]
    additions = 0 if hunks_at < 0 else raw.count(b"\n+", hunks_at)
    deletions = 0 if hunks_at < 0 else raw.count(b"\n-", hunks_at)
    # Header and hunks decoded apart, each once: they meet at a newline, which no UTF-8
    # sequence (valid or not) spans, so the texts and the "replaced" flag are those of the
    # whole chunk decoded at once.
    header_text, header_replaced = decode_patch(header)
    # Like GitHub's ``patch`` field: the hunks, without git's per-file header lines.
    hunks, hunks_replaced = ("", False) if hunks_at < 0 else _decode_view(memoryview(raw)[hunks_at + 1 :])
    old_blob, new_blob = _blob_ids(header)
    path, previous, status, binary = _header_facts(header_text)
    change = PlainFileChange(
        path=path,
        previous_path=previous,
        status=status,
        additions=additions,
        deletions=deletions,
        patch=None if binary else hunks,
        binary=binary,
    )
    return ParsedFile(change, old_blob, new_blob, header_replaced or hunks_replaced)


def _decode_view(raw: memoryview) -> tuple[str, bool]:
    """`decode_patch` of part of a chunk, without copying the part first."""
    try:
        return str(raw, "utf-8"), False
    except UnicodeDecodeError:
        return str(raw, "utf-8", "replace"), True


def _blob_ids(header: bytes) -> tuple[str | None, str | None]:
    match = _INDEX_LINE.search(header)
    if match is None:
        return None, None
    old, new = match.group(1, 2)
    # All zeros: no blob on that side (an added or removed file).
    return (old.decode("ascii") if old.strip(b"0") else None), (new.decode("ascii") if new.strip(b"0") else None)


HeaderFacts = tuple[str, str | None, FileStatus, bool]


def _header_facts(header: str) -> HeaderFacts:
    """(path, previous_path, status, binary) from one file header."""
    plain = plain_header_facts(header)
    return plain if plain is not None else unidiff_header_facts(header)


def plain_header_facts(header: str) -> HeaderFacts | None:
    """The common header shape read directly, exactly as ``unidiff_header_facts`` reads it.

    Only for headers made of ``diff --git``, git's extended lines that say nothing about
    copies or binaries, then ``---``/``+++``, with no quoted path and no tab; anything else
    (None) goes through unidiff. A property test checks both agree on every header this
    accepts: unidiff takes a path from the ``diff --git`` line (its own pattern is used
    here), replaces it by /dev/null for an added or deleted file, and the ``+++`` line must
    restate the target.
    """
    if '"' in header or "\t" in header or "\r" in header:
        return None
    lines = header.split("\n")
    if lines[-1] == "":
        lines.pop()
    if len(lines) < 3 or not lines[-2].startswith("--- ") or not lines[-1].startswith("+++ "):
        return None
    git_line = RE_DIFF_GIT_HEADER.match(lines[0])
    if git_line is None:
        return None
    source, target = git_line.group("source"), git_line.group("target")
    for line in lines[1:-2]:
        if _PLAIN_EXTENDED_LINE.match(line) is None:
            return None
        if line.startswith("new file mode "):
            source = DEV_NULL
        elif line.startswith("deleted file mode "):
            target = DEV_NULL
    if lines[-1][4:] != target:
        return None  # unidiff rejects this header; its fallback decides
    if source == DEV_NULL:
        return _strip_prefix(target, "b/"), None, FileStatus.ADDED, False
    if target == DEV_NULL:
        return _strip_prefix(source, "a/"), None, FileStatus.REMOVED, False
    if source[2:] != target[2:]:
        return _strip_prefix(target, "b/"), _strip_prefix(source, "a/"), FileStatus.RENAMED, False
    return _strip_prefix(target, "b/"), None, FileStatus.MODIFIED, False


def unidiff_header_facts(header: str) -> HeaderFacts:
    """(path, previous_path, status, binary) of any file header, through unidiff."""
    try:
        patched = list(PatchSet(header))
    except (UnidiffParseError, ValueError, IndexError):
        patched = []
    if len(patched) == 1:
        item = patched[0]
        source = unquote_path(item.source_file)
        target = unquote_path(item.target_file)
        previous: str | None = None
        if item.is_added_file:
            status = FileStatus.ADDED
            path = _strip_prefix(target, "b/")
        elif item.is_removed_file:
            status = FileStatus.REMOVED
            path = _strip_prefix(source, "a/")
        else:
            path = _strip_prefix(target, "b/")
            status = FileStatus.MODIFIED
            if item.is_rename:
                status = FileStatus.RENAMED
                previous = _strip_prefix(source, "a/")
        copied = _header_value(header, "copy from ")
        if copied is not None:
            status, previous = FileStatus.COPIED, copied
        return path, previous, status, bool(item.is_binary_file)
    return _fallback_header_facts(header)


def _fallback_header_facts(header: str) -> tuple[str, str | None, FileStatus, bool]:
    # Mode-only changes and other headers without ---/+++ lines: read the git header lines.
    first = header.split("\n", 1)[0].removeprefix("diff --git ")
    path = _header_value(header, "rename to ") or _path_from_git_line(first)
    previous = _header_value(header, "rename from ")
    status = FileStatus.RENAMED if previous else FileStatus.MODIFIED
    if "\nnew file mode " in header:
        status = FileStatus.ADDED
    elif "\ndeleted file mode " in header:
        status = FileStatus.REMOVED
    binary = "\nBinary files " in header or "\nGIT binary patch" in header
    return path, previous, status, binary


def _header_value(header: str, prefix: str) -> str | None:
    for line in header.split("\n"):
        if line.startswith(prefix):
            return unquote_path(line[len(prefix) :])
    return None


def _path_from_git_line(line: str) -> str:
    """``a/X b/X`` → X (the target); quoted forms are unquoted."""
    if line.endswith('"'):
        start = line.rfind(' "')
        return _strip_prefix(unquote_path(line[start + 1 :] if start >= 0 else line), "b/")
    half = len(line) // 2
    target = line[half + 1 :] if line[:half] == "a/" + line[half + 3 :] else line.rsplit(" ", 1)[-1]
    return _strip_prefix(target, "b/")


def _strip_prefix(path: str, prefix: str) -> str:
    return path[len(prefix) :] if path.startswith(prefix) else path


def unquote_path(path: str) -> str:
    """Undo git's C-style quoting (``"a/t\\303\\251st"`` → ``a/tést``); plain paths pass through."""
    path = path.rstrip("\t")
    if len(path) < 2 or not (path.startswith('"') and path.endswith('"')):
        return path
    inner = path[1:-1]
    out = bytearray()
    position = 0
    for match in _OCTAL_ESCAPE.finditer(inner):
        out += inner[position : match.start()].encode("utf-8")
        code = match.group(1)
        if len(code) == 3:
            out.append(int(code, 8) & 0xFF)
        else:
            out += _C_ESCAPES.get(code, code).encode("utf-8")
        position = match.end()
    out += inner[position:].encode("utf-8")
    return out.decode("utf-8", errors="replace")
