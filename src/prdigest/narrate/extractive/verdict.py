"""The recommended action and the feed paragraph: the verdict first, then why, then what a
reader gains (`lesson`), then what to watch, all from the verdict, risk, dependency and discussion facts."""

from __future__ import annotations

from prdigest.facts_view.evidence import reason_text, tag_label, tag_labels
from prdigest.models.facts import Facts, VerdictReason
from prdigest.models.narrative import Length
from prdigest.narrate.extractive.changes import caps_added, specifier
from prdigest.narrate.extractive.lesson import lesson_sentence
from prdigest.narrate.extractive.summary import file_count
from prdigest.narrate.extractive.text import collapse, shorten
from prdigest.words import Phrases

MAX_WATCH = {"full": 4, "brief": 2}


# Reasons that name something a reader learns; the feed leads with these (seed 003).
LESSON_CODES = frozenset({"lineage", "design-trap", "fix", "dependency-decision", "new-module", "public-api"})
# Reasons that say what a skipped PR is rather than weigh it.
DESCRIPTIVE_CODES = frozenset({"small-change", "version-only", "data-only", "no-core", "no-files"})
MAX_REASONS = 3
# Reasons that carry no weight but must always be said (what the facts could not see).
STATED_CODES = frozenset({"incomplete-data"})
MIN_LESSON_WEIGHT = 1.0
MAX_ITEMS = 2  # facts per reason in a paragraph


def chosen_reasons(facts: Facts) -> list[VerdictReason]:
    """The reasons the paragraph gives: lessons first; for a skip, what makes it skippable."""
    reasons = sorted(facts.verdict.reasons, key=lambda r: -abs(r.weight))
    # Missing input is said first, whatever the level: the reader must know what the verdict lacks.
    stated = [r for r in reasons if r.code in STATED_CODES]
    reasons = [r for r in reasons if r.code not in STATED_CODES]
    positive = [r for r in reasons if r.weight > 0]
    # A bare mention (one "root cause", one test file) is no lesson; the paragraph would overclaim.
    lessons = [r for r in positive if r.code in LESSON_CODES and r.weight >= MIN_LESSON_WEIGHT]
    if facts.verdict.level.value == "skip":
        negative = [r for r in reasons if r.weight < 0]
        # What the PR is ("a small change: 3 lines of core logic in …") when nothing counts against it.
        described = [r for r in reasons if r.weight == 0 and r.code in DESCRIPTIVE_CODES]
        return stated + (negative[:2] + lessons[:1] or described[:1])[:MAX_REASONS]
    return stated + (lessons or positive)[:MAX_REASONS]


def reasons_sentence(facts: Facts, ph: Phrases) -> str:
    labels_of_tags = tag_labels(facts.risks.tags, ph.labels)
    clauses: list[str] = []
    for reason in chosen_reasons(facts):
        if reason.items:
            clauses.append(reason_text(reason, ph.labels, labels_of_tags, limit=MAX_ITEMS))
            continue
        # Facts from before the analyzers emitted templates: name the reason, quote its detail.
        name = ph.say("reasons", reason.code) if ph.has("reasons", reason.code) else reason.code.replace("-", " ")
        detail = shorten(reason.detail, 160)
        clauses.append(ph.say("reasons", "detail", reason=name, detail=detail) if detail else name)
    if clauses:
        # One sentence per reason, as the seeds' feed paragraphs read.
        return ph.sentences(clauses)
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
            kind = ph.say("thread_kind_words", thread.kind)
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
            items.append(ph.say("verdict", "watch_high", label=tag_label(tag, ph.labels)))
    return list(dict.fromkeys(items))[: MAX_WATCH[length]]


def lineage_sentences(facts: Facts, ph: Phrases) -> list[str]:
    """A reverted PR says so first, with when: a reader must not study what was pulled back.
    Then hindsight from blame: the earlier PR whose lines a fix changes, the later fixes of
    a PR's lines."""
    return _revert_sentences(facts, ph) + _blame_sentences(facts, ph)


def _blame_sentences(facts: Facts, ph: Phrases) -> list[str]:
    sentences: list[str] = []
    for cause in facts.lineage.root_cause_in[:1]:
        if cause.days_between:  # 0: the same day, said without a count
            sentences.append(ph.say("verdict", "fixes_origin", ref=f"#{cause.number}", days=cause.days_between))
        else:
            sentences.append(ph.say("verdict", "fixes_origin_undated", ref=f"#{cause.number}"))
    if facts.lineage.fixed_by:
        fixes = facts.lineage.fixed_by[:3]
        whens = [how_soon(fix.days_between, ph) for fix in fixes]
        if len(set(whens)) == 1:
            refs = ph.join([f"#{event.number}" for event in fixes])
            sentences.append(ph.say("verdict", "fixed_later", refs=refs, when=whens[0]))
        else:
            # Fixes at different times: each its own gap, not the soonest said of all.
            each = [
                ph.say("verdict", "fix_when", ref=f"#{fix.number}", when=when)
                for fix, when in zip(fixes, whens, strict=True)
            ]
            sentences.append(ph.say("verdict", "fixed_later_each", refs=ph.join(each)))
    return sentences


def how_soon(days: int | None, ph: Phrases) -> str:
    """ "3 days later" / "within a day" (under 24 hours: the dates may differ) / "later" (the gap
    unknown) for an event after the merge."""
    if days is None:
        return ph.say("verdict", "when_later")
    if days == 0:
        return ph.say("verdict", "when_same_day")
    if days == 1:
        return ph.say("verdict", "when_one_day")
    return ph.say("verdict", "when_days", days=days)


def _revert_sentences(facts: Facts, ph: Phrases) -> list[str]:
    reverted = facts.lineage.reverted_by
    if not reverted:
        return []
    refs = ph.join(
        [
            f"#{event.number}" if event.repository == facts.repository else f"{event.repository}#{event.number}"
            for event in reverted
        ]
    )
    dates = [event.merged_at for event in reverted if event.merged_at is not None]
    gaps = [event.days_after for event in reverted if event.days_after is not None]
    when = how_soon(min(gaps) if gaps else None, ph)
    sentences = [
        ph.say("verdict", "reverted", refs=refs, when=when, date=min(dates).strftime("%Y-%m-%d"))
        if dates
        else ph.say("verdict", "reverted_undated", refs=refs)
    ]
    restored = facts.lineage.restored_by
    if restored:
        sentences.append(ph.say("verdict", "restored", refs=ph.join([f"#{event.number}" for event in restored])))
    return sentences


def verdict_paragraph(facts: Facts, length: Length, ph: Phrases) -> str:
    """``值得精读。<why>。需关注：…。`` / ``Worth reading in depth. <why>. Watch: ….``"""
    label = ph.labels.verdict(facts.verdict.level.value)
    parts = [ph.say("verdict", "lead", label=label), *lineage_sentences(facts, ph), reasons_sentence(facts, ph)]
    lesson = lesson_sentence(facts, ph)
    if lesson:
        parts.append(lesson)
    watch = watch_items(facts, length, ph)
    if watch:
        parts.append(ph.say("verdict", "watch", items=ph.tables["quote"]["clause_sep"].join(watch)))
    return ph.sentences(parts)
