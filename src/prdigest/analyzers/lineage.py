"""Lineage: how PRs of one repository relate, read from their stored references.

`lineage_for` answers "what happened around this PR": its own (outgoing) references and
the later PRs that reference it (incoming, with the relation turned around: B "reverts
#A" makes A *reverted-by* B). With ``max_hops > 1`` it also follows non-"mentions"
links of linked PRs, so a report can tell added → reverted → restored → relaxed.
Links are ordered by time when known, else by number. Pure function; no store access.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from prdigest.models.facts import LineageRelation, ReferencesFacts, Relation

PRKey = tuple[str, int]  # (OWNER/NAME, number)

_INVERSE: dict[Relation, LineageRelation] = {
    "fixes": "fixed-by",
    "reverts": "reverted-by",
    "reverted-by": "reverts",
    "follow-up-to": "followed-up-by",
    "supersedes": "superseded-by",
    "superseded-by": "supersedes",
    "alternative-to": "alternative-to",
    "depends-on": "depended-on-by",
    "root-cause-in": "root-cause-of",
    "restores": "restored-by",
    "prerequisite-for": "depends-on",
    "followed-up-by": "follow-up-to",
    "mentions": "mentioned-by",
}

# When the same pair is linked both ways, keep the most telling statement.
RELATION_STRENGTH: dict[str, int] = {
    "reverts": 10,
    "reverted-by": 10,
    "restores": 9,
    "restored-by": 9,
    "fixes": 8,
    "fixed-by": 8,
    "root-cause-in": 7,
    "root-cause-of": 7,
    "supersedes": 5,
    "superseded-by": 5,
    "depends-on": 4,
    "depended-on-by": 4,
    "prerequisite-for": 4,
    "follow-up-to": 3,
    "followed-up-by": 3,
    "alternative-to": 2,
    "mentions": 0,
    "mentioned-by": 0,
}


class LineageLink(BaseModel):
    """One edge of the lineage as seen from the PR asked about (or from `via`)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    repository: str
    number: int
    title: str | None = None
    relation: LineageRelation
    direction: Literal["outgoing", "incoming"]
    evidence: str = ""
    via: int | None = None  # the linked PR this hop came through (None: direct link)
    hop: int = 1


def invert(relation: Relation) -> LineageRelation:
    """The relation seen from the referenced PR's side."""
    return _INVERSE[relation]


def lineage_for(
    target: PRKey,
    references: Mapping[PRKey, ReferencesFacts],
    titles: Mapping[PRKey, str] | None = None,
    times: Mapping[PRKey, datetime] | None = None,
    max_hops: int = 1,
) -> list[LineageLink]:
    """The links of `target`: outgoing and incoming, then further hops of strong relations."""
    titles = titles or {}
    norm_refs = {_norm(key): value for key, value in references.items()}
    norm_titles = {_norm(key): value for key, value in titles.items()}
    norm_times = {_norm(key): value for key, value in (times or {}).items()}
    start = _norm(target)

    links: list[LineageLink] = []
    seen_pairs: dict[tuple[PRKey, PRKey], int] = {}
    visited = {start}
    frontier = [start]
    for hop in range(1, max(1, max_hops) + 1):
        next_frontier: list[PRKey] = []
        for node in frontier:
            for other, link in _direct_links(node, norm_refs, norm_titles, hop, start):
                if hop > 1 and link.relation in ("mentions", "mentioned-by"):
                    continue
                pair = (node, other)
                index = seen_pairs.get(pair)
                if index is None:
                    seen_pairs[pair] = len(links)
                    links.append(link)
                elif RELATION_STRENGTH[link.relation] > RELATION_STRENGTH[links[index].relation]:
                    links[index] = link
                if other not in visited:
                    visited.add(other)
                    next_frontier.append(other)
        frontier = next_frontier
    # A further hop may not point back at the PR asked about.
    links = [link for link in links if link.hop == 1 or _norm((link.repository, link.number)) != start]
    # Time orders best, but only when every linked PR has one; numbers otherwise.
    use_time = all(_norm((link.repository, link.number)) in norm_times for link in links)
    return sorted(links, key=lambda link: _order_key(link, norm_times if use_time else {}))


def _norm(key: PRKey) -> PRKey:
    # GitHub owner/name are case-insensitive; lowercase so "vLLM-project" matches.
    return (key[0].lower(), key[1])


def _order_key(link: LineageLink, times: Mapping[PRKey, datetime]) -> tuple[int, float, int, int]:
    when = times.get(_norm((link.repository, link.number)))
    stamp = when.timestamp() if when is not None else 0.0
    return (link.hop, stamp, link.number, 0 if link.direction == "outgoing" else 1)


def _direct_links(
    node: PRKey,
    references: Mapping[PRKey, ReferencesFacts],
    titles: Mapping[PRKey, str],
    hop: int,
    start: PRKey,
) -> list[tuple[PRKey, LineageLink]]:
    via = None if node == start else node[1]
    found: list[tuple[PRKey, LineageLink]] = []
    own = references.get(node)
    if own is not None:
        for ref in own.references:
            other = _norm((ref.repository, ref.number))
            if other == node:
                continue
            link = LineageLink(
                repository=ref.repository,
                number=ref.number,
                title=titles.get(other),
                relation=ref.relation,
                direction="outgoing",
                evidence=ref.evidence,
                via=via,
                hop=hop,
            )
            found.append((other, link))
    for source, facts in references.items():
        if source == node:
            continue
        for ref in facts.references:
            if _norm((ref.repository, ref.number)) != node:
                continue
            link = LineageLink(
                repository=source[0],
                number=source[1],
                title=titles.get(source),
                relation=invert(ref.relation),
                direction="incoming",
                evidence=ref.evidence,
                via=via,
                hop=hop,
            )
            found.append((source, link))
    return found


# A root cause found by blame: the link's evidence says how many lines, in words any
# renderer can read back (`blamed_lines`) to say it in the report's language.
_BLAME_EVIDENCE = re.compile(
    r"^git blame: (?P<lines>\d+) of (?P<of>\d+) changed lines written by (?P<commit>[0-9a-f]+)$"
)


def blame_evidence(lines: int, of_lines: int, commit: str) -> str:
    return f"git blame: {lines} of {of_lines} changed lines written by {commit[:10]}"


def blamed_lines(evidence: str) -> tuple[int, int, str] | None:
    """(lines, of lines, commit) of a `blame_evidence` text, else None."""
    match = _BLAME_EVIDENCE.match(evidence)
    if match is None:
        return None
    return int(match.group("lines")), int(match.group("of")), match.group("commit")


# A restore found by its diff alone: the link's evidence says how many lines came back.
_RELAND_EVIDENCE = re.compile(r"^git diff: adds again (?P<lines>\d+) of the (?P<of>\d+) lines #(?P<number>\d+) added$")


def reland_evidence(lines: int, of_lines: int, original: int) -> str:
    return f"git diff: adds again {lines} of the {of_lines} lines #{original} added"


def readded(evidence: str) -> tuple[int, int] | None:
    """(lines, of lines) of a `reland_evidence` text, else None."""
    match = _RELAND_EVIDENCE.match(evidence)
    return None if match is None else (int(match.group("lines")), int(match.group("of")))
