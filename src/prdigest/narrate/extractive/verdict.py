"""The recommended action and the feed paragraph: the verdict first, then why, then what to
watch, all from the verdict, risk, dependency and discussion facts."""

from __future__ import annotations

from prdigest.models.facts import Facts
from prdigest.models.narrative import Length
from prdigest.narrate.extractive.changes import caps_added, specifier
from prdigest.narrate.extractive.phrases import Phrases
from prdigest.narrate.extractive.summary import file_count
from prdigest.narrate.extractive.text import collapse, shorten

MAX_WATCH = {"full": 4, "brief": 2}


def reasons_sentence(facts: Facts, ph: Phrases) -> str:
    reasons = []
    for reason in sorted(facts.verdict.reasons, key=lambda r: -r.weight)[:3]:
        name = ph.say("reasons", reason.code) if ph.has("reasons", reason.code) else reason.code.replace("-", " ")
        detail = shorten(reason.detail, 160)
        reasons.append(ph.say("reasons", "detail", reason=name, detail=detail) if detail else name)
    if reasons:
        return ph.say("verdict", "because", reasons=ph.tables["quote"]["clause_sep"].join(reasons))
    return ph.say(
        "verdict",
        "no_reasons",
        files=file_count(facts.files.total_files or len(facts.files.files), ph),
        additions=facts.files.total_additions,
        deletions=facts.files.total_deletions,
    )


def watch_items(facts: Facts, length: Length, ph: Phrases) -> list[str]:
    items: list[str] = []
    for thread in facts.discussion.threads:
        if thread.kind in ("correctness", "design") and thread.outcome in ("no-reply", "unresolved"):
            kind = ph.labels.lookup("thread_kinds", thread.kind)
            items.append(
                ph.say("verdict", "watch_unanswered", kind=kind, topic=ph.quote(shorten(collapse(thread.topic), 100)))
            )
    for change in facts.dependencies.changes:
        if change.newly_admitted:
            versions = ph.join(change.newly_admitted[:3])
            items.append(ph.say("verdict", "watch_admitted", package=change.package, versions=versions))
        elif caps_added(change) and change.after:
            items.append(ph.say("verdict", "watch_lock", after=specifier(change.after, change.package)))
    if facts.tests_ci.missing_tests:
        items.append(ph.say("verdict", "watch_missing_tests"))
    for tag in facts.risks.tags:
        if tag.severity == "high":
            items.append(ph.say("verdict", "watch_high", label=tag.label_zh if ph.lang == "zh" else tag.label_en))
    return list(dict.fromkeys(items))[: MAX_WATCH[length]]


def verdict_paragraph(facts: Facts, length: Length, ph: Phrases) -> str:
    """``值得精读。<why>。需关注：…。`` / ``Worth reading in depth. <why>. Watch: ….``"""
    label = ph.labels.verdict(facts.verdict.level.value)
    parts = [ph.say("verdict", "lead", label=label), reasons_sentence(facts, ph)]
    watch = watch_items(facts, length, ph)
    if watch:
        parts.append(ph.say("verdict", "watch", items=ph.tables["quote"]["clause_sep"].join(watch)))
    return ph.sentences(parts)
