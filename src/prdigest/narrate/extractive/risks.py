"""Risks (one per risk tag, with the fact behind it, plus unanswered review points) and the
impact on users, the system and the team."""

from __future__ import annotations

import re

from prdigest.facts_view.evidence import risk_evidence, tag_label
from prdigest.facts_view.gaps import file_gap_notes, files_known
from prdigest.models.facts import Evidence, Facts, RiskTag
from prdigest.models.narrative import Impact, Length
from prdigest.narrate.extractive.changes import caps_added, caps_removed, change_shape, reaches_users, specifier
from prdigest.narrate.extractive.step_parts import join_more
from prdigest.narrate.extractive.summary import file_count
from prdigest.narrate.extractive.text import collapse, shorten
from prdigest.narrate.extractive.user_impact import may_reach_users, source_reach, team_sentences, user_sentences
from prdigest.words import Phrases

MAX_RISKS = {"full": 8, "brief": 3}
# Within one severity, the kinds a reader most needs come first: what reviewers flagged and
# specific findings before the generic size/test/CI notes, so a cut loses the generic ones.
TAG_PRIORITY = (
    "unresolved-review-concern",
    "error-message-regression",
    "security-sensitive",
    "variant-conflict",
    "duplicated-logic-across-files",
    "dependency-constraint-change",
    "version-lock",
    "future-version-regression-risk",
    "dependency-downgrade",
    "public-api-change",
    "platform-detection-assumption",
    "runtime-image-impact",
    "revert",
    "dependency-upgrade",
    "missing-regression-test",
    "large-change",
    "ci-change",
    "ci-only-change",
    "generated-or-lock-only",
)
_SEVERITY_RANK = {"high": 0, "medium": 1, "low": 2}
_PATH_LINE = re.compile(r"^(?P<path>.+):(?P<line>\d+)$")
MAX_MODULES = 4
_IMAGE_TAGS = ("runtime-image-impact",)
_LOCK_TAGS = ("version-lock",)
_DEPENDENCY_TAGS = frozenset(
    {"dependency-constraint-change", "version-lock", "future-version-regression-risk", "dependency-upgrade"}
)


def risks(facts: Facts, length: Length, ph: Phrases) -> list[str]:
    """The risk bullets, most important first; when some are cut, a last bullet says how many
    (every tag is still listed in the report's risk tags)."""
    ranked = sorted(enumerate(_ranked_bullets(facts, ph)), key=lambda item: (item[1][0], item[0]))
    shown = [text for _, (_, text) in ranked[: MAX_RISKS[length]]]
    cut = len(ranked) - len(shown)
    if not files_known(facts):
        # First, so it is never cut: the risks of the files nobody saw are unknown.
        shown.insert(0, ph.labels.text("risks_file_list_incomplete"))
    if cut:
        shown.append(ph.sentence(ph.say("risks", "more", count=cut)))
    return shown


def _rank(severity: str, kind: str) -> tuple[int, int]:
    position = TAG_PRIORITY.index(kind) if kind in TAG_PRIORITY else len(TAG_PRIORITY)
    return (_SEVERITY_RANK.get(severity, len(_SEVERITY_RANK)), position)


def _ranked_bullets(facts: Facts, ph: Phrases) -> list[tuple[tuple[int, int], str]]:
    found: list[tuple[tuple[int, int], str]] = []
    for tag in facts.risks.tags:
        label = tag_label(tag, ph.labels)
        severity = ph.say("severity", tag.severity)
        evidence = shorten(risk_evidence(merged_lines(tag, ph), ph.labels), 240 if not tag.items else 10**6)
        if evidence:
            text = ph.sentence(ph.say("risks", "tag", label=label, severity=severity, evidence=evidence))
        else:
            text = ph.sentence(ph.say("risks", "tag_no_evidence", label=label, severity=severity))
        found.append((_rank(tag.severity, tag.tag), text))
    tagged = {t.tag for t in facts.risks.tags}
    if not tagged & _DEPENDENCY_TAGS:  # a dependency change's own tag already says it
        for change in facts.dependencies.changes:
            if caps_removed(change) and change.after:
                after = specifier(change.after, change.package)
                text = ph.sentence(ph.say("risks", "future", after=after, package=change.package))
                found.append((_rank("medium", "future-version-regression-risk"), text))
    for thread in facts.discussion.threads:
        # Unanswered correctness points already have their tag (unresolved-review-concern).
        covered = thread.kind == "correctness" and "unresolved-review-concern" in tagged
        if thread.kind in ("correctness", "design") and thread.outcome in ("no-reply", "unresolved") and not covered:
            who = ", ".join(dict.fromkeys(thread.participants or [q.author for q in thread.quotes])) or "?"
            text = ph.sentence(
                ph.say(
                    "risks",
                    "unanswered",
                    kind=ph.say("thread_kind_words", thread.kind),
                    who=who,
                    topic=ph.quote(shorten(collapse(thread.topic), 160)),
                )
            )
            # An unanswered point ranks as the tag it would carry (unresolved-review-concern).
            found.append((_rank("medium", "unresolved-review-concern"), text))
    return found


def merged_lines(tag: RiskTag, ph: Phrases) -> RiskTag:
    """`tag` with the items that differ only in the line of one file told once
    (``fmhaKernels.cuh:136, 152, 169``) rather than as three identical sentences.

    Only items whose ``where`` is ``path:line`` are merged; any other item (no ``where``, a
    list, a path without a line) is kept as it is, so a template used without a ``where``
    can never break the report."""
    groups: dict[tuple[str, str, str] | int, list[Evidence]] = {}
    for index, item in enumerate(tag.items):
        where = item.params.get("where")
        match = _PATH_LINE.match(where) if isinstance(where, str) else None
        if match is None:
            groups[index] = [item]
            continue
        rest = repr(sorted((k, v) for k, v in item.params.items() if k != "where"))
        groups.setdefault((item.template, match.group("path"), rest), []).append(item)
    if all(len(g) == 1 for g in groups.values()):
        return tag
    items: list[Evidence] = []
    for key, group in groups.items():
        if len(group) == 1 or isinstance(key, int):
            items.extend(group)
            continue
        lines = [str(item.params["where"]).rsplit(":", 1)[1] for item in group]
        params = {**group[0].params, "where": f"{key[1]}:{ph.join(list(dict.fromkeys(lines)))}"}
        items.append(group[0].model_copy(update={"params": params}))
    return tag.model_copy(update={"items": items})


def impact(facts: Facts, ph: Phrases) -> Impact:
    shape = change_shape(facts)
    churn: dict[str, int] = {}
    for file in facts.files.files:
        if file.module:
            churn[file.module] = churn.get(file.module, 0) + file.additions + file.deletions
    by_churn = sorted(churn, key=lambda m: -churn[m])
    reach = source_reach(facts)
    users: list[str] = user_sentences(reach, ph)
    # Which versions change is the implementation's and the risks' to say: here, only whom it
    # reaches (a CI tool or a dev pin reaches no user).
    packages = list(dict.fromkeys(c.package for c in facts.dependencies.changes if reaches_users(c)))
    if packages:
        shown = [ph.code(p) for p in packages[:MAX_MODULES]]
        users.append(ph.say("impact", "users_dependencies", changes=_more(shown, len(packages), ph)))
    unread = [ph.code(p) for f in facts.dependencies.findings if f.kind == "unread-format" for p in f.paths]
    if unread:  # what it declares was not read: no "no effect on users" rests on it
        users.append(ph.say("impact", "users_unread_dependencies", files=_more(unread[:MAX_MODULES], len(unread), ph)))
    declared = {c.path for c in facts.dependencies.changes}
    broken = [
        ph.code(p)
        for p in dict.fromkeys(p for f in facts.dependencies.findings if f.kind == "unparsable" for p in f.paths)
        if p not in declared
    ]
    if broken:  # what it declares could not be read either (a manifest that does not parse)
        users.append(
            ph.say("impact", "users_unparsable_dependencies", files=_more(broken[:MAX_MODULES], len(broken), ph))
        )
    known = files_known(facts)
    if not known:
        users.append(ph.say("impact", "users_unknown"))
    elif not users:
        shipped = [ph.code(f.path) for f in facts.files.files if may_reach_users(f)]
        if shipped:  # a completion script or a syntax file is no source code, yet users run it
            users.append(ph.say("impact", "users_other_files", files=_more(shipped[:MAX_MODULES], len(shipped), ph)))
        else:
            users.append(ph.say("impact", "users_none"))

    modules = by_churn
    system: list[str] = []
    if not known:
        system.extend(file_gap_notes(facts, ph.labels))
    elif shape != "empty":
        system.append(
            ph.say(
                "impact",
                "system",
                modules=_more([ph.labels.module(m) for m in modules[:MAX_MODULES]], len(modules), ph)
                or ph.labels.text("none_identified"),
                files=file_count(facts.files.total_files or len(facts.files.files), ph),
                additions=facts.files.total_additions,
                deletions=facts.files.total_deletions,
            )
        )
    if any(reaches_users(c) for c in facts.dependencies.changes):
        system.append(ph.say("impact", "system_dependency"))
    tagged = {t.tag for t in facts.risks.tags}
    if tagged & set(_IMAGE_TAGS) or any(
        f.category == "infra" and "docker" in f.path.lower() for f in facts.files.files
    ):
        system.append(ph.say("impact", "system_image"))

    team: list[str] = team_sentences(reach, ph)
    if facts.tests_ci.ci_changed and facts.tests_ci.ci_files:
        ci = [ph.code(p) for p in facts.tests_ci.ci_files]
        team.append(ph.say("impact", "team_ci", paths=_more(ci[:MAX_MODULES], len(ci), ph)))
    if facts.tests_ci.tests_changed:
        # "with the code" unless nothing but tests (and docs) changed: a syntax definition, a
        # submodule or a script beside them is what they test, whatever its category
        tests_alone = all(f.category in ("test", "docs") for f in facts.files.files)
        team.append(ph.say("impact", "team_tests_no_code" if known and tests_alone else "team_tests"))
    elif facts.tests_ci.removed_test_files:
        removed = [ph.code(p) for p in facts.tests_ci.removed_test_files]
        team.append(ph.say("impact", "team_tests_removed", paths=_more(removed[:MAX_MODULES], len(removed), ph)))
    elif facts.tests_ci.missing_tests or "missing-regression-test" in tagged:
        team.append(ph.say("impact", "team_missing_tests"))
    if not known and not facts.tests_ci.tests_changed:
        team.append(ph.say("impact", "team_unknown"))
    if tagged & set(_LOCK_TAGS) or any(caps_added(c) for c in facts.dependencies.changes):
        team.append(ph.say("impact", "team_lock"))
    if not team:
        team.append(ph.say("impact", "team_none"))
    return Impact(users=ph.sentences(users), system=ph.sentences(system), team=ph.sentences(team))


def _more(shown: list[str], total: int, ph: Phrases) -> str:
    return join_more(shown, total - len(shown), ph)
