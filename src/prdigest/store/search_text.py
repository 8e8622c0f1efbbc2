"""The searchable text of a PR (segmented, cleaned), without database code: the store's
search index (`prdigest.store.search_store`) and a new SQLite file's sync
(`prdigest.store.new_sqlite`) build the same documents from it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prdigest.models.facts import Facts
    from prdigest.models.narrative import Narrative
    from prdigest.models.plain_records import AnyPullRequest

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_RUN = re.compile(f"[{CJK}]+")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def segment(value: str) -> str:
    """Put spaces around every CJK character so each is a token of its own."""
    return _CJK_RUN.sub(_spaced, value)  # (a run at a time: a call per character costs more)


def _spaced(run: re.Match[str]) -> str:
    return " " + "  ".join(run.group()) + " "


def clean(value: str) -> str:
    # Lone surrogates (from odd JSON escapes) cannot be encoded; control chars would break
    # PostgreSQL text (NUL) or clash with the snippet markers.
    safe = value.encode("utf-8", "replace").decode("utf-8")
    return _CONTROL.sub(" ", safe)


@dataclass(frozen=True)
class SearchDocument:
    title: str
    body: str
    comments: str
    report: str


def facts_report(facts: Facts) -> tuple[str, ...]:
    """What a PR's facts put in its search document's report (before its narratives')."""
    report = [f"{t.tag} {t.label_zh} {t.label_en}" for t in facts.risks.tags]
    report += [r.detail for r in facts.verdict.reasons]
    report += [f.path for f in facts.files.files if f.is_key]
    report += [s.name for s in facts.symbols.symbols]
    return tuple(report)


# The record's part of a search document: segmented title, body and comments.
RecordText = tuple[str, str, str]


def record_text(pr: AnyPullRequest) -> RecordText:
    """The record's columns of its search document (an analysis worker makes them from the
    record it already holds: the main process then neither reads nor parses the record)."""
    comments: list[str] = [c.body for c in pr.comments]
    comments += [r.body for r in pr.reviews if r.body]
    comments += [c.body for thread in pr.review_threads for c in thread.comments]
    return segment(clean(pr.title)), segment(clean(pr.body)), segment(clean("\n".join(comments)))


def build_document(
    pr: AnyPullRequest | RecordText, facts: Facts | Sequence[str] | None, narratives: Sequence[Narrative]
) -> SearchDocument:
    """The searchable text of one PR (segmented, cleaned). ``pr``: the record, or its
    `record_text`; ``facts``: its facts, or their `facts_report` when the caller has it (the
    analysis does: the facts are not parsed again)."""
    title, body, comments = pr if isinstance(pr, tuple) else record_text(pr)
    report: list[str] = []
    if facts is not None:
        report += facts if isinstance(facts, Sequence) else facts_report(facts)
    for narrative in narratives:
        report += [narrative.feed_title, narrative.one_line, narrative.recommendation, narrative.motivation]
        report += [narrative.feed_paragraph, *narrative.risks]
        report += [f"{step.title} {step.detail}" for step in narrative.implementation]
    return SearchDocument(
        title=title,
        body=body,
        comments=comments,
        report=segment(clean("\n".join(x for x in report if x))),
    )


def parse_facts(body: str) -> Facts:
    # Imported here: a sync of new records has neither facts nor narratives, and these
    # models cost more to import than many records to index.
    from prdigest.models.facts import Facts

    return Facts.model_validate_json(body)


def parse_narratives(bodies: list[str]) -> list[Narrative]:
    if not bodies:
        return []
    from prdigest.models.narrative import Narrative

    return [Narrative.model_validate_json(body) for body in bodies]
