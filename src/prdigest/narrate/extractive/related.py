"""Related work: the lineage links handed in (from the store) plus the PR's own references,
each with how it relates and the sentence that says so."""

from __future__ import annotations

import re

from prdigest.analyzers.lineage import blamed_lines, readded
from prdigest.analyzers.pr_inline import plain_excerpt
from prdigest.models.facts import Facts
from prdigest.models.narrative import Length, RelatedNote
from prdigest.narrate.extractive.text import collapse, shorten
from prdigest.words import Phrases

MAX_RELATED = {"full": 12, "brief": 6}
# What is left of an evidence line once references and the words that introduce them are
# taken out; when nothing is, the line ("Fixes #12", "- #3197", a bare URL) adds nothing to
# the relation sentence.
_REFERENCE = re.compile(r"(?:[\w.-]+/[\w.-]+)?(?:#\d+|@[0-9a-f]{7,40})\b|\b[0-9a-f]{7,40}\b", re.IGNORECASE)
_REFERENCE_WORDS = re.compile(
    r"\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|refs?|see|also|related(?: to)?|issues?|prs?|pull request|"
    r"follow[- ]?up(?: to| of)?|reverts?|supersedes?|depends on|part of|and|to|in|of|cc)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W\d_]{2,}")


def related_notes(facts: Facts, related: list[RelatedNote], length: Length, ph: Phrases) -> list[RelatedNote]:
    """`related` first (it knows titles and incoming links), then references it does not cover."""
    merged: list[RelatedNote] = []
    seen: set[tuple[str, int]] = set()
    for note in related:
        key = (note.repository.lower(), note.number)
        if key not in seen:
            seen.add(key)
            merged.append(note)
    for ref in facts.references.references:
        key = (ref.repository.lower(), ref.number)
        if key in seen or key == (facts.repository.lower(), facts.number):
            continue
        seen.add(key)
        merged.append(
            RelatedNote(
                repository=ref.repository,
                number=ref.number,
                relation=ref.relation,
                note=ref.evidence,
                kind=ref.target_kind,
                found_in=ref.where,
            )
        )
    return [_phrase(note, facts.repository, ph) for note in merged[: MAX_RELATED[length]]]


def _phrase(note: RelatedNote, repository: str, ph: Phrases) -> RelatedNote:
    # Another repository's #12 is not this one's: its sentence names the repository.
    same = not note.repository or note.repository.lower() == repository.lower()
    ref = f"#{note.number}" if same else f"{note.repository}#{note.number}"
    counted = _git_counts(note)
    if counted is not None and ph.has("related", f"{note.relation}-{note.found_in}"):
        lines, of_lines = counted
        key = f"{note.relation}-{note.found_in}"
        text = ph.say("related", key, ref=ref, lines=lines, of_lines=of_lines)
        return note.model_copy(update={"title": collapse(note.title), "note": ph.sentence(text)})
    if ph.has("related", note.relation):
        sentence = ph.say("related", note.relation, ref=ref)
    else:
        sentence = f"{ph.labels.relation(note.relation)} {ref}"
    evidence = shorten(plain_excerpt(note.note, note.repository), 200)
    if not _says_more(evidence):
        evidence = ""
    text = ph.say("related", "evidence", sentence=sentence, quote=ph.quote(evidence)) if evidence else sentence
    return note.model_copy(update={"title": collapse(note.title), "note": ph.sentence(text)})


def _git_counts(note: RelatedNote) -> tuple[int, int] | None:
    """The line counts a link found by git (blame, a re-added diff) carries, to be said in
    the report's language."""
    if note.found_in == "git-blame":
        blamed = blamed_lines(note.note)
        return None if blamed is None else (blamed[0], blamed[1])
    if note.found_in == "git-diff":
        return readded(note.note)
    return None


def _says_more(evidence: str) -> bool:
    """Whether an evidence line says more than the reference itself."""
    rest = _REFERENCE_WORDS.sub(" ", _REFERENCE.sub(" ", evidence))
    return len(_WORD.findall(rest)) >= 2
