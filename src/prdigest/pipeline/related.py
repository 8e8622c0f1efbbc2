"""Related work from the store: a PR's outgoing links and the links other stored PRs make to
it (relation turned around: B "reverts #A" makes A *reverted-by* B), with titles, ordered
by number (which follows time within one repository)."""

from __future__ import annotations

from prdigest.analyzers.lineage import RELATION_STRENGTH, invert
from prdigest.models.facts import Relation
from prdigest.models.narrative import RelatedNote
from prdigest.store import facts_store
from prdigest.store.store import Store


def related_from_store(store: Store, repository: str, number: int) -> list[RelatedNote]:
    notes: dict[tuple[str, int], RelatedNote] = {}

    def keep(note: RelatedNote) -> None:
        key = (note.repository.lower(), note.number)
        if key == (repository.lower(), number):
            return
        current = notes.get(key)
        if current is None or RELATION_STRENGTH.get(note.relation, 0) > RELATION_STRENGTH.get(current.relation, 0):
            notes[key] = note

    outgoing = facts_store.links_from(store, repository, number)
    same_repo = [link.target_number for link in outgoing if link.target_repository.lower() == repository.lower()]
    titles = facts_store.titles(store, repository, same_repo)
    for link in outgoing:
        title = titles.get(link.target_number, "") if link.target_repository.lower() == repository.lower() else ""
        keep(
            RelatedNote(
                repository=link.target_repository,
                number=link.target_number,
                title=title,
                relation=link.relation,
                note=link.evidence,
                # a stored record with that number is a pull request whatever the text said
                kind="pr" if title else link.target_kind,
            )
        )
    for link in facts_store.links_to(store, repository, number):
        keep(
            RelatedNote(
                repository=link.source_repository,
                number=link.source_number,
                title=link.source_title,
                relation=_inverse(link.relation),
                note=link.evidence,
            )
        )
    return sorted(notes.values(), key=lambda n: (n.repository.lower() != repository.lower(), n.repository, n.number))


def _inverse(relation: str) -> str:
    try:
        return str(invert(relation))  # type: ignore[arg-type]
    except KeyError:
        return "mentioned-by"


__all__ = ["Relation", "related_from_store"]
