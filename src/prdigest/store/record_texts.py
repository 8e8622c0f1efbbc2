"""A stored record put back together with its files' texts (see `prdigest.store.file_texts`),
without database code: `file_texts.load_records` reads the texts through SQLAlchemy, the quick
report path (`prdigest.store.quick`) with sqlite3."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from prdigest.errors import StoreError
from prdigest.models.pullrequest import PullRequest


def text_refs(texts: str | None) -> list[list[Any]] | None:
    """A row's ``texts`` JSON as ``[[file index, before digest, after digest], ...]``."""
    return json.loads(texts) if texts is not None else None


def wanted_digests(refs: list[list[Any]] | None) -> set[str]:
    return {digest for item in refs or () for digest in item[1:] if digest is not None}


def with_texts(record: str, refs: list[list[Any]] | None, found: Mapping[str, str]) -> PullRequest:
    """The record parsed from its JSON, each named text put back from ``found`` (by digest)."""
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
