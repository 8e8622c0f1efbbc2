"""Related work: the lineage links handed in (from the store) plus the PR's own references,
each with how it relates and the sentence that says so."""

from __future__ import annotations

from prdigest.models.facts import Facts
from prdigest.models.narrative import Length, RelatedNote
from prdigest.narrate.extractive.phrases import Phrases
from prdigest.narrate.extractive.text import collapse, shorten

MAX_RELATED = {"full": 12, "brief": 6}


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
            RelatedNote(repository=ref.repository, number=ref.number, relation=ref.relation, note=ref.evidence)
        )
    return [_phrase(note, ph) for note in merged[: MAX_RELATED[length]]]


def _phrase(note: RelatedNote, ph: Phrases) -> RelatedNote:
    if ph.has("related", note.relation):
        sentence = ph.say("related", note.relation, number=note.number)
    else:
        sentence = f"{ph.labels.relation(note.relation)} #{note.number}"
    evidence = shorten(collapse(note.note), 200)
    text = ph.say("related", "evidence", sentence=sentence, quote=ph.quote(evidence)) if evidence else sentence
    return note.model_copy(update={"title": collapse(note.title), "note": ph.sentence(text)})
