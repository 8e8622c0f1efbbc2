"""Risks (one per risk tag, with the fact behind it, plus unanswered review points) and the
impact on users, the system and the team."""

from __future__ import annotations

from prdigest.models.facts import Facts
from prdigest.models.narrative import Impact, Length
from prdigest.narrate.extractive.changes import caps_added, caps_removed, change_shape, specifier
from prdigest.narrate.extractive.phrases import Phrases
from prdigest.narrate.extractive.summary import file_count
from prdigest.narrate.extractive.text import collapse, shorten
from prdigest.render.evidence import risk_evidence

MAX_RISKS = {"full": 8, "brief": 4}
_IMAGE_TAGS = ("runtime-image-impact",)
_LOCK_TAGS = ("version-lock",)


def risks(facts: Facts, length: Length, ph: Phrases) -> list[str]:
    found: list[str] = []
    for tag in facts.risks.tags:
        label = tag.label_zh if ph.lang == "zh" else tag.label_en
        severity = ph.say("severity", tag.severity)
        evidence = risk_evidence(tag, ph.labels) if tag.items else shorten(tag.evidence, 240)
        if evidence:
            found.append(ph.sentence(ph.say("risks", "tag", label=label, severity=severity, evidence=evidence)))
        else:
            found.append(ph.sentence(ph.say("risks", "tag_no_evidence", label=label, severity=severity)))
    tagged = {t.tag for t in facts.risks.tags}
    if "future-version-regression-risk" not in tagged:
        for change in facts.dependencies.changes:
            if caps_removed(change) and change.after:
                after = specifier(change.after, change.package)
                found.append(ph.sentence(ph.say("risks", "future", after=after, package=change.package)))
    for thread in facts.discussion.threads:
        # Unanswered correctness points already have their tag (unresolved-review-concern).
        covered = thread.kind == "correctness" and "unresolved-review-concern" in tagged
        if thread.kind in ("correctness", "design") and thread.outcome in ("no-reply", "unresolved") and not covered:
            who = ", ".join(dict.fromkeys(thread.participants or [q.author for q in thread.quotes])) or "?"
            found.append(
                ph.sentence(
                    ph.say(
                        "risks",
                        "unanswered",
                        kind=ph.say("thread_kind_words", thread.kind),
                        who=who,
                        topic=ph.quote(shorten(collapse(thread.topic), 160)),
                    )
                )
            )
    return found[: MAX_RISKS[length]]


def impact(facts: Facts, ph: Phrases) -> Impact:
    shape = change_shape(facts)
    source_modules = list(dict.fromkeys(f.module for f in facts.files.files if f.category == "source" and f.module))
    users: list[str] = []
    if source_modules:
        users.append(ph.say("impact", "users_source", modules=ph.join([ph.labels.module(m) for m in source_modules])))
    for change in facts.dependencies.changes[:3]:
        admits = (
            ph.say("impact", "users_admits", versions=ph.join(change.newly_admitted)) if change.newly_admitted else ""
        )
        users.append(ph.say("impact", "users_dependency", paths=change.path, package=change.package, admits=admits))
    if not users:
        users.append(ph.say("impact", "users_none"))

    modules = list(dict.fromkeys(f.module for f in facts.files.files if f.module))
    system: list[str] = []
    if shape != "empty":
        system.append(
            ph.say(
                "impact",
                "system",
                modules=ph.join([ph.labels.module(m) for m in modules[:5]]) or ph.labels.text("none_identified"),
                files=file_count(facts.files.total_files or len(facts.files.files), ph),
                additions=facts.files.total_additions,
                deletions=facts.files.total_deletions,
            )
        )
    if facts.dependencies.changes:
        system.append(ph.say("impact", "system_dependency"))
    tagged = {t.tag for t in facts.risks.tags}
    if tagged & set(_IMAGE_TAGS) or any(
        f.category == "infra" and "docker" in f.path.lower() for f in facts.files.files
    ):
        system.append(ph.say("impact", "system_image"))

    team: list[str] = []
    if facts.tests_ci.ci_changed and facts.tests_ci.ci_files:
        team.append(ph.say("impact", "team_ci", paths=ph.join([ph.code(p) for p in facts.tests_ci.ci_files[:4]])))
    if facts.tests_ci.tests_changed:
        team.append(ph.say("impact", "team_tests"))
    elif facts.tests_ci.missing_tests or "missing-regression-test" in tagged:
        team.append(ph.say("impact", "team_missing_tests"))
    if tagged & set(_LOCK_TAGS) or any(caps_added(c) for c in facts.dependencies.changes):
        team.append(ph.say("impact", "team_lock"))
    if not team:
        team.append(ph.say("impact", "team_none"))
    return Impact(users=ph.sentences(users), system=ph.sentences(system), team=ph.sentences(team))
