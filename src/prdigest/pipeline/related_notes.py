"""A PR's related work from its link rows (`related.related_from_store` reads them through the
store, `quick.quick_report` with sqlite3): no database code here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from prdigest.analyzers.lineage import RELATION_STRENGTH, invert
from prdigest.models.narrative import RelatedNote
from prdigest.store.links import Link


def same_repository_targets(repository: str, outgoing: Sequence[Link]) -> list[int]:
    """The numbers of ``outgoing``'s targets in ``repository`` (whose titles are looked up)."""
    return [link.target_number for link in outgoing if link.target_repository.lower() == repository.lower()]


def related_notes(
    repository: str, number: int, outgoing: Sequence[Link], titles: Mapping[int, str], incoming: Sequence[Link]
) -> list[RelatedNote]:
    """One note per related PR or issue (the strongest relation when several), ``outgoing``
    links first as found, then ``incoming`` ones turned around; ``titles`` of same-repository
    targets by number."""
    notes: dict[tuple[str, int], RelatedNote] = {}

    def keep(note: RelatedNote) -> None:
        key = (note.repository.lower(), note.number)
        if key == (repository.lower(), number):
            return
        current = notes.get(key)
        if current is None or RELATION_STRENGTH.get(note.relation, 0) > RELATION_STRENGTH.get(current.relation, 0):
            notes[key] = note

    for link in outgoing:
        title = titles.get(link.target_number, "") if link.target_repository.lower() == repository.lower() else ""
        keep(
            RelatedNote(
                repository=link.target_repository,
                number=link.target_number,
                title=title,
                relation=link.relation,
                note=link.evidence,
                found_in=link.found_in,
                # a stored record with that number is a pull request whatever the text said
                kind="pr" if title else link.target_kind,
            )
        )
    for link in incoming:
        keep(
            RelatedNote(
                repository=link.source_repository,
                number=link.source_number,
                title=link.source_title,
                relation=_inverse(link.relation),
                note=link.evidence,
                found_in=link.found_in,
            )
        )
    return sorted(notes.values(), key=lambda n: (n.repository.lower() != repository.lower(), n.repository, n.number))


def _inverse(relation: str) -> str:
    try:
        return str(invert(relation))  # type: ignore[arg-type]
    except KeyError:
        return "mentioned-by"
