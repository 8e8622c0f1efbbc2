"""Related work from the store: a PR's outgoing links and the links other stored PRs make to
it (relation turned around: B "reverts #A" makes A *reverted-by* B), with titles, ordered
by number (which follows time within one repository)."""

from __future__ import annotations

from prdigest.models.facts import Relation
from prdigest.models.narrative import RelatedNote
from prdigest.pipeline.related_notes import related_notes, same_repository_targets
from prdigest.store import facts_store
from prdigest.store.store import Store


def related_from_store(store: Store, repository: str, number: int) -> list[RelatedNote]:
    outgoing = facts_store.links_from(store, repository, number)
    titles = facts_store.titles(store, repository, same_repository_targets(repository, outgoing))
    return related_notes(repository, number, outgoing, titles, facts_store.links_to(store, repository, number))


__all__ = ["Relation", "related_from_store"]
