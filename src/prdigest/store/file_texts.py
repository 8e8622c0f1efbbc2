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

from collections.abc import Iterable, Sequence

from sqlalchemy import Connection, select

from prdigest.models.pullrequest import PullRequest
from prdigest.store.record_texts import (  # the record side, without database code
    WITHOUT_TEXTS,
    TextDigests,
    record_json,
    row_hash,
    split_texts,
    text_refs,
    text_size,
    wanted_digests,
    with_texts,
)

__all__ = [
    "WITHOUT_TEXTS",
    "TextDigests",
    "load_records",
    "record_json",
    "row_hash",
    "save_texts",
    "split_texts",
    "text_size",
]
from prdigest.store.schema import file_texts
from prdigest.store.upsert import insert_rows

_CHUNK = 500  # digests per IN (...): well under every database's bound-parameter limit


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
