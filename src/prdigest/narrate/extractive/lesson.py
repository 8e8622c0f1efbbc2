"""What a reader gains from a PR worth reading, in one sentence of the feed's language.

Chosen from the strongest fact that carries a lesson, in this order: where a fixed bug came
from (git blame), what a restore changed against the reverted PR, a dependency decision, a
design trap, a new module, new public API, a changed public default; else what the main
changed definitions now do differently. A skip gets none: its reasons say why it can be
skipped. Nothing is said that no fact holds.
"""

from __future__ import annotations

from prdigest.analyzers.symbol_names import in_test_module, is_private
from prdigest.models.facts import Facts, VerdictReason
from prdigest.words import Phrases

MAX_NAMES = 2


def lesson_sentence(facts: Facts, ph: Phrases) -> str:
    if facts.verdict.level.value == "skip":
        return ""
    lineage = facts.lineage
    if lineage.root_cause_in:
        return ph.say("lesson", "origin", ref=f"#{lineage.root_cause_in[0].number}")
    if lineage.restore_diffs:
        restore = lineage.restore_diffs[0]
        return ph.say("lesson", "restore_identical" if restore.identical else "restore", ref=f"#{restore.original}")
    reasons = {r.code: r for r in sorted(facts.verdict.reasons, key=lambda r: -r.weight) if r.weight > 0}
    decision = reasons.get("dependency-decision")
    if decision is not None:
        return ph.say("lesson", "dependency", packages=ph.join(_params(decision, "package")))
    if "design-trap" in reasons:
        return ph.say("lesson", "design_trap")
    module = reasons.get("new-module")
    if module is not None and _params(module, "paths"):
        return ph.say("lesson", "new_module", path=ph.code(_params(module, "paths")[0]))
    api = reasons.get("public-api")
    if api is not None and _params(api, "names"):
        return ph.say("lesson", "public_api", names=ph.join([ph.code(n) for n in _params(api, "names")[:MAX_NAMES]]))
    if "api-default" in reasons:
        return ph.say("lesson", "api_default")
    names = _main_definitions(facts)
    if names and "core-change" in reasons:
        return ph.say("lesson", "behaviour", names=ph.join([ph.code(n) for n in names]))
    return ""


def _params(reason: VerdictReason, key: str) -> list[str]:
    values: list[str] = []
    for item in reason.items:
        value = item.params.get(key)
        if isinstance(value, str) and value:
            values.append(value)
        elif isinstance(value, list):
            values.extend(v for v in value if v)
    return list(dict.fromkeys(values))


def _main_definitions(facts: Facts) -> list[str]:
    """Up to two definitions the PR changes in its core logic that a reader would look up:
    public, not test code, not changed only in their comments, in the most changed files first."""
    core = {
        f.path: f.additions + f.deletions
        for f in facts.files.files
        if f.type == "core-logic" and f.category == "source"
    }
    candidates = [
        s
        for s in facts.symbols.symbols
        if s.path in core
        and s.change in ("modified", "added")
        and not s.docs_only
        and not is_private(s.name, s.language)
        and not in_test_module(s.name, s.language)
    ]
    candidates.sort(key=lambda s: (-core[s.path], s.change != "modified"))
    return list(dict.fromkeys(s.name for s in candidates))[:MAX_NAMES]
