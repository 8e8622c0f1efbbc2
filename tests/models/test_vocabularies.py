"""Each vocabulary is defined once in `prdigest.models`; the lists elsewhere are parts of it."""

from __future__ import annotations

from typing import get_args

from prdigest.analyzers.lineage import invert
from prdigest.models.facts import (
    DependencyChangeKind,
    IncomingRelation,
    LineageRelation,
    Relation,
    VerdictLevel,
    VerdictName,
)
from prdigest.models.narrative import SECTION_FIELDS, SECTIONS, Narrative
from prdigest.narrate.extractive import changes
from prdigest.narrate.llm.schema import LLMAnswer


def test_lineage_relations_are_the_relations_and_their_inverses() -> None:
    outgoing, incoming = set(get_args(Relation)), set(get_args(IncomingRelation))
    assert not outgoing & incoming
    assert set(get_args(LineageRelation)) == outgoing | incoming
    assert {invert(relation) for relation in get_args(Relation)} <= outgoing | incoming
    assert incoming <= {invert(relation) for relation in get_args(Relation)}


def test_verdict_names_are_the_verdict_levels() -> None:
    assert list(get_args(VerdictName)) == list(VerdictLevel)


def test_the_narration_order_names_every_dependency_change_kind_once() -> None:
    order = changes._KIND_ORDER
    assert len(order) == len(set(order))
    assert set(order) == set(get_args(DependencyChangeKind))


def test_sections_name_narrative_fields_and_the_llm_answer_is_those_fields() -> None:
    assert set(SECTION_FIELDS) == set(SECTIONS)
    fields = [name for names in SECTION_FIELDS.values() for name in names]
    assert len(fields) == len(set(fields))
    assert set(fields) <= set(Narrative.model_fields)
    assert set(fields) == set(LLMAnswer.model_fields)
