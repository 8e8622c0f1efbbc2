"""A PR's lineage chain from the stored reference graph (``pr_links``), two hops deep.

`prdigest.analyzers.lineage.lineage_for` does the reasoning; this module only gathers the
stored edges around the PR (its own, the ones pointing at it, and those of its neighbours).
"""

from __future__ import annotations

from datetime import datetime

from prdigest.analyzers.lineage import LineageLink, PRKey, lineage_for
from prdigest.models.facts import Reference, ReferencesFacts
from prdigest.store.facts_store import links_from, links_to, titles
from prdigest.store.links import Link
from prdigest.store.store import Store

_MAX_NEIGHBOURS = 30


def _edges_around(store: Store, key: PRKey) -> list[Link]:
    return [*links_from(store, key[0], key[1]), *links_to(store, key[0], key[1])]


def _reference(link: Link) -> Reference | None:
    try:
        return Reference.model_validate(
            {
                "repository": link.target_repository,
                "number": link.target_number,
                "target_kind": link.target_kind,
                "relation": link.relation,
                "where": link.found_in,
                "evidence": link.evidence,
            }
        )
    except ValueError:
        return None  # a row written by a newer vocabulary: leave it out rather than fail


def lineage(store: Store, repository: str, number: int, *, hops: int = 2) -> list[LineageLink]:
    start: PRKey = (repository, number)
    edges = _edges_around(store, start)
    neighbours: list[PRKey] = []
    for link in edges:
        for other in ((link.source_repository, link.source_number), (link.target_repository, link.target_number)):
            if other != start and other not in neighbours:
                neighbours.append(other)
    if hops > 1:
        for other in neighbours[:_MAX_NEIGHBOURS]:
            edges += _edges_around(store, other)
    references: dict[PRKey, ReferencesFacts] = {}
    seen: set[tuple[str, int, str, int, str, str]] = set()
    names: dict[PRKey, str] = {}
    for link in edges:
        identity = (
            link.source_repository,
            link.source_number,
            link.target_repository,
            link.target_number,
            link.relation,
            link.found_in,
        )
        if identity in seen:
            continue
        seen.add(identity)
        names[(link.source_repository, link.source_number)] = link.source_title
        reference = _reference(link)
        if reference is not None:
            source = (link.source_repository, link.source_number)
            references.setdefault(source, ReferencesFacts()).references.append(reference)
    same_repo = sorted({n for r, n in neighbours if r == repository})
    names.update({(repository, n): t for n, t in titles(store, repository, same_repo).items()})
    times: dict[PRKey, datetime] = {}
    return lineage_for(start, references, names, times, max_hops=hops)
