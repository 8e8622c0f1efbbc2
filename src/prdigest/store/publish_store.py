"""What a PR's published pages were built from, read for many PRs at once: the stored
inputs `pipeline.publish_stamps` stamps a PR's pages with, to skip rewriting unchanged ones."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import bindparam, select

from prdigest.store.schema import facts, narratives, pull_requests, repositories
from prdigest.store.store import Store


@dataclass(frozen=True)
class PageInputs:
    record_hash: str
    facts_key: str | None  # the stored facts' cache key, None when never analyzed
    facts_digest: str  # of the stored facts' JSON ("" when none)
    # Every stored narrative of the PR: (id, lang, length, cache key); a new one has a new id.
    narratives: list[tuple[int, str, str, str]] = field(default_factory=list)


def page_inputs(store: Store, repository: str, numbers: Sequence[int]) -> dict[int, PageInputs]:
    """The stored inputs of ``numbers``' pages, in two queries; a PR not stored is left out."""
    if not numbers:
        return {}
    found: dict[int, PageInputs] = {}
    with store._engine.connect() as connection:
        ids: dict[int, int] = {}
        for pr_id, number, record_hash, key, body in connection.execute(
            _PAGES, {"repository": repository, "numbers": list(numbers)}
        ):
            digest = "" if body is None else hashlib.sha256(str(body).encode("utf-8")).hexdigest()
            found[int(number)] = PageInputs(str(record_hash), None if key is None else str(key), digest, [])
            ids[int(pr_id)] = int(number)
        for pr_id, narrative_id, lang, length, key in connection.execute(_NARRATIVES, {"ids": list(ids)}):
            found[ids[int(pr_id)]].narratives.append((int(narrative_id), str(lang), str(length), str(key)))
    return found


# Built once: building a statement costs more than executing it (publishing asks per PR).
_PAGES = (
    select(pull_requests.c.id, pull_requests.c.number, pull_requests.c.record_hash, facts.c.cache_key, facts.c.body)
    .join(repositories, repositories.c.id == pull_requests.c.repository_id)
    .outerjoin(facts, facts.c.pull_request_id == pull_requests.c.id)
    .where(
        repositories.c.full_name == bindparam("repository"),
        pull_requests.c.number.in_(bindparam("numbers", expanding=True)),
    )
)
_NARRATIVES = (
    select(
        narratives.c.pull_request_id,
        narratives.c.id,
        narratives.c.lang,
        narratives.c.length,
        narratives.c.cache_key,
    )
    .where(narratives.c.pull_request_id.in_(bindparam("ids", expanding=True)))
    .order_by(narratives.c.id)
)
