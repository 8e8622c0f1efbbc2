"""The reference edges between PRs as the store returns them (no SQLAlchemy here: the quick
report path of `prdigest.store.quick` builds the same rows with sqlite3)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Link:
    """One reference edge: ``source`` PR mentions ``target`` with ``relation``."""

    source_repository: str
    source_number: int
    source_title: str
    target_repository: str
    target_number: int
    target_kind: str
    relation: str
    found_in: str
    evidence: str
