"""Grounding of the model's judgement: every point must rest on facts the prompt gave.

The rules, each named in the rejection it causes (``Narrative.grounding_rejections``):

* ``no-known-fact``: a lesson, watch-next or action whose cited ids are none of the prompt's
  fact ids (`Prompt.fact_ids`) is dropped; unknown ids beside known ones are only removed;
* ``verdict-unknown-level``: an argued level that is not a verdict level;
* ``verdict-too-far``: an argued level more than one step from the facts' verdict;
* ``verdict-no-reason``: an argued level without a reason or without a known fact.

An argued level equal to the facts' is agreement, not an argument: nothing is shown. The
text of what is kept goes through the same mention check as all model prose.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from prdigest.models.facts import VerdictLevel
from prdigest.models.narrative import ArguedVerdict, Judgement, JudgementPoint
from prdigest.narrate.llm.schema import JudgementOut, PointOut

# Lowest to highest: "one step" is a neighbour in this order.
LEVELS = (VerdictLevel.SKIP.value, VerdictLevel.QUICK_READ.value, VerdictLevel.READ_IN_DEPTH.value)


@dataclass(frozen=True)
class Grounded:
    judgement: Judgement | None
    rejections: list[str]


def ground(answer: JudgementOut, fact_ids: Iterable[str], facts_level: str, clean: Callable[[str], str]) -> Grounded:
    """The judgement as the report may show it, and why each dropped part was dropped."""
    known = frozenset(fact_ids)
    rejections: list[str] = []

    def point(name: str, out: PointOut) -> JudgementPoint | None:
        text = clean(out.text)
        if not text:
            return None
        cited = _known(out.facts, known)
        if not cited:
            rejections.append(f"judgement.{name}: rule no-known-fact (cited {_listed(out.facts)})")
            return None
        return JudgementPoint(text=text, facts=cited)

    lesson = point("lesson", answer.lesson)
    watch = point("watch_next", answer.watch_next)
    action = point("action", answer.action)
    verdict = _argued(answer, known, facts_level, clean, rejections)
    judgement = Judgement(lesson=lesson, watch_next=watch, action=action, verdict=verdict)
    return Grounded(None if judgement.empty else judgement, rejections)


def _argued(
    answer: JudgementOut, known: frozenset[str], facts_level: str, clean: Callable[[str], str], rejections: list[str]
) -> ArguedVerdict | None:
    level = answer.verdict.level.strip().lower()
    if not level or level == facts_level:
        return None
    if level not in LEVELS:
        rejections.append(f"judgement.verdict: rule verdict-unknown-level ({level[:40]})")
        return None
    if facts_level in LEVELS and abs(LEVELS.index(level) - LEVELS.index(facts_level)) > 1:
        rejections.append(f"judgement.verdict: rule verdict-too-far ({facts_level} → {level})")
        return None
    reason = clean(answer.verdict.reason)
    cited = _known(answer.verdict.facts, known)
    if not reason or not cited:
        rejections.append("judgement.verdict: rule verdict-no-reason (an argued level needs a reason and its facts)")
        return None
    return ArguedVerdict(level=level, reason=reason, facts=cited)


def _known(cited: Iterable[str], known: frozenset[str]) -> list[str]:
    return list(dict.fromkeys(fact.strip().strip("[]") for fact in cited if fact.strip().strip("[]") in known))


def _listed(cited: list[str]) -> str:
    return ", ".join(fact[:60] for fact in cited[:5]) or "nothing"
