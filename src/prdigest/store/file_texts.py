"""Records stored without their files' full texts, which are kept once each by digest.

A git history's records carry every changed source file's text before and after (for the
analyzers): most of it twice, since one PR's "after" is the next one's "before". Inside each
record's JSON, serializing, hashing and writing those texts was most of a sync's time. So a
row's ``record`` is the JSON without ``content_before``/``content_after``, ``texts`` names
(as ``[[file index, before digest, after digest], ...]``) the texts in ``file_texts``, keyed
by the SHA-256 of their UTF-8 bytes, and every reader gets back the record it would have
parsed from the whole JSON. Rows without ``texts`` (older rows, records without texts) hold
the whole record.

Texts are never deleted: another row (of any repository) may name the same one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import Connection, select

from prdigest.models.pullrequest import PullRequest
from prdigest.store.record_texts import text_refs, wanted_digests, with_texts
from prdigest.store.schema import file_texts
from prdigest.store.upsert import insert_rows

# What a row's ``record`` JSON leaves out (pydantic's exclude: every file's two texts).
WITHOUT_TEXTS: Any = {"files": {"__all__": {"content_before", "content_after"}}}
_CHUNK = 500  # digests per IN (...): well under every database's bound-parameter limit


def record_json(pr: PullRequest) -> str:
    """The JSON stored in a row's ``record``: the record without its files' full texts."""
    return pr.model_dump_json(exclude=WITHOUT_TEXTS)


def text_size(pr: PullRequest) -> int:
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


def split_texts(pr: PullRequest, digests: TextDigests) -> tuple[str | None, dict[str, str | bytes]]:
    """(the row's ``texts`` JSON, or None when the record has no full text; each text by
    digest, as text or already as its UTF-8 bytes)."""
    refs: list[list[Any]] = []
    texts: dict[str, str | bytes] = {}
    for index, change in enumerate(pr.files):
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


def save_texts(connection: Connection, texts: dict[str, str | bytes]) -> None:
    """Store these texts; one already stored (by this or another writer) is left as it is.

    In digest order: two writers inserting the same texts (PostgreSQL) then wait for each
    other in one order and never deadlock."""
    rows = [
        {"digest": digest, "body": text.encode("utf-8") if isinstance(text, str) else text}
        for digest, text in sorted(texts.items())
    ]
    for start in range(0, len(rows), _CHUNK):
        insert_rows(connection, file_texts, rows[start : start + _CHUNK], keys=["digest"])


def load_records(connection: Connection, rows: Sequence[tuple[str, str | None]]) -> list[PullRequest]:
    """Records from rows' (``record``, ``texts``), texts read in a few queries and put back."""
    refs = [text_refs(texts) for _record, texts in rows]
    found = read_texts(connection, set().union(*(wanted_digests(ref) for ref in refs)))
    return [with_texts(record, ref, found) for (record, _texts), ref in zip(rows, refs, strict=True)]


def read_texts(connection: Connection, digests: Iterable[str]) -> dict[str, str]:
    wanted = sorted(digests)
    found: dict[str, str] = {}
    for start in range(0, len(wanted), _CHUNK):
        query = select(file_texts.c.digest, file_texts.c.body).where(
            file_texts.c.digest.in_(wanted[start : start + _CHUNK])
        )
        for digest, body in connection.execute(query):
            found[str(digest)] = bytes(body).decode("utf-8")
    return found
