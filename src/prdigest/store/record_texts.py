"""A record split from and put back together with its files' texts (see
`prdigest.store.file_texts`), without database code: `file_texts` reads and writes the texts
through SQLAlchemy, the quick report path (`prdigest.store.quick`) and a new SQLite file's
sync (`prdigest.store.new_sqlite`) with sqlite3."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from prdigest.errors import StoreError
from prdigest.models.plain_records import PlainFileChange, PlainPullRequest

if TYPE_CHECKING:  # a new file's sync writes plain records and never loads the models
    from prdigest.models.pullrequest import FileChange, PullRequest


def text_refs(texts: str | None) -> list[list[Any]] | None:
    """A row's ``texts`` JSON as ``[[file index, before digest, after digest], ...]``."""
    return json.loads(texts) if texts is not None else None


def wanted_digests(refs: list[list[Any]] | None) -> set[str]:
    return {digest for item in refs or () for digest in item[1:] if digest is not None}


def with_texts(record: str, refs: list[list[Any]] | None, found: Mapping[str, str]) -> PullRequest:
    """The record parsed from its JSON, each named text put back from ``found`` (by digest)."""
    from prdigest.models.pullrequest import PullRequest

    pr = PullRequest.model_validate_json(record)
    for index, before, after in refs or ():
        change = pr.files[index]
        if before is not None:
            change.content_before = _text(found, before)
        if after is not None:
            change.content_after = _text(found, after)
    return pr


def _text(found: Mapping[str, str], digest: str) -> str:
    text = found.get(digest)
    if text is None:
        raise StoreError(f"a stored record names a file text that is not in the database ({digest[:12]})")
    return text


# What a row's ``record`` JSON leaves out (pydantic's exclude: every file's two texts).
WITHOUT_TEXTS: Any = {"files": {"__all__": {"content_before", "content_after"}}}


def record_json(pr: PullRequest | PlainPullRequest) -> str:
    """The JSON stored in a row's ``record``: the record without its files' full texts."""
    if isinstance(pr, PlainPullRequest):
        return pr.record_json()
    return pr.model_dump_json(exclude=WITHOUT_TEXTS)


def text_size(pr: PullRequest | PlainPullRequest) -> int:
    """Characters of full text the record carries (what a write batch holds besides JSON)."""
    return sum(len(f.content_before or "") + len(f.content_after or "") for f in pr.files)


class TextDigests:
    """Digests of texts, each text object hashed once while it is remembered.

    A git sync hands the same ``str`` object as one PR's "after" and the next one's "before";
    remembering the last objects spares hashing them twice. Holding the object keeps its
    ``id`` from being reused by another text; the texts held are bounded by count and by
    characters (``keep_chars``), so large files do not keep a sync's memory up.
    """

    def __init__(self, keep: int = 1024, keep_chars: int = 16 * 1024 * 1024) -> None:
        self.keep = keep
        self.keep_chars = keep_chars
        self._known: dict[int, tuple[str, str]] = {}
        self._chars = 0

    def digest(self, text: str) -> tuple[str, str | bytes]:
        """(digest, the UTF-8 bytes when just encoded, else the text itself)."""
        found = self._known.get(id(text))
        if found is not None and found[0] is text:
            return found[1], text
        body = text.encode("utf-8")
        digest = hashlib.sha256(body).hexdigest()
        if len(text) <= self.keep_chars:
            while self._known and (len(self._known) >= self.keep or self._chars + len(text) > self.keep_chars):
                dropped = self._known.pop(next(iter(self._known)))[0]
                self._chars -= len(dropped)
            self._known[id(text)] = (text, digest)
            self._chars += len(text)
        return digest, body


def split_texts(pr: PullRequest | PlainPullRequest, digests: TextDigests) -> tuple[str | None, dict[str, str | bytes]]:
    """(the row's ``texts`` JSON, or None when the record has no full text; each text by
    digest, as text or already as its UTF-8 bytes)."""
    refs: list[list[Any]] = []
    texts: dict[str, str | bytes] = {}
    files: Sequence[FileChange | PlainFileChange] = pr.files
    for index, change in enumerate(files):
        before, after = change.content_before, change.content_after
        if before is None and after is None:
            continue
        ref: list[Any] = [index, None, None]
        for slot, text in ((1, before), (2, after)):
            if text is not None:
                digest, body = digests.digest(text)
                ref[slot] = digest
                texts[digest] = body
        refs.append(ref)
    if not refs:
        return None, texts
    return json.dumps(refs, separators=(",", ":")), texts


def row_hash(record: str, texts: str | None) -> str:
    """The row's ``record_hash``: equal records (texts included, through their digests) hash equal."""
    digest = hashlib.sha256(record.encode("utf-8"))
    if texts is not None:
        digest.update(b"\n" + texts.encode("ascii"))
    return digest.hexdigest()
