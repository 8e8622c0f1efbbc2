"""Script and CI edits in words: a new script's commands in order, the commands a changed one
gained and lost, the CI steps that now run another command, the steps and jobs added or
removed. Their parameters hold JSON lists (see `analyzers.symbols.shell_steps` and
`ci_steps`); each item is shown as code, the first few named and the rest counted."""

from __future__ import annotations

import json
from collections.abc import Sequence

from prdigest.models.facts import CodeEdit
from prdigest.narrate.extractive.step_parts import join_more
from prdigest.words import Phrases

MAX_SHOWN = 3
_KINDS = frozenset({"script-steps", "script-commands-changed", "ci-run-changed", "ci-step-added", "ci-step-removed"})


def is_step_edit(edit: CodeEdit) -> bool:
    return edit.kind in _KINDS


def _items(text: str) -> list[object]:
    try:
        found = json.loads(text)
    except ValueError:
        return []
    return found if isinstance(found, list) else []


def _codes(values: Sequence[object], ph: Phrases) -> str:
    return join_more([ph.code(str(v)) for v in values[:MAX_SHOWN]], len(values) - MAX_SHOWN, ph)


def _step_text(step: object, ph: Phrases) -> str:
    if not isinstance(step, dict):
        return ""
    if "if" not in step:
        return ph.code(str(step.get("run", "")))
    then = _codes(list(step.get("then") or []), ph)
    otherwise = list(step.get("else") or [])
    condition = ph.code(str(step["if"]))
    if not then:
        return ph.say("code_edits", "script-step-unless", condition=condition, otherwise=_codes(otherwise, ph))
    if not otherwise:
        return ph.say("code_edits", "script-step-if", condition=condition, then=then)
    return ph.say("code_edits", "script-step-if-else", condition=condition, then=then, otherwise=_codes(otherwise, ph))


def _lines(edit: CodeEdit, ph: Phrases) -> str:
    first, last = edit.params.get("first", ""), edit.params.get("last", "")
    if not first:
        return ""
    if first == last or not last:
        return ph.say("code_edits", "at_line", line=first)
    return ph.say("code_edits", "at_lines", first=first, last=last)


def _job(name: str, ph: Phrases) -> str:
    return ph.code(name) if name else ph.say("code_edits", "the_pipeline")


def step_edit_clause(edit: CodeEdit, ph: Phrases) -> str:
    params = edit.params
    more = int(params.get("more", "0") or 0)
    if edit.kind == "script-steps":
        steps = [t for t in (_step_text(s, ph) for s in _items(params.get("steps", "[]"))) if t]
        joined = ph.say("code_edits", "script-then").join(steps)
        key = "script-steps-more" if more else "script-steps"
        return ph.say("code_edits", key, lines=_lines(edit, ph), steps=joined, more=more)
    if edit.kind == "script-commands-changed":
        added, removed = _items(params.get("added", "[]")), _items(params.get("removed", "[]"))
        if added and removed:
            return ph.say("code_edits", "script-commands-both", added=_codes(added, ph), removed=_codes(removed, ph))
        key, values = ("script-commands-added", added) if added else ("script-commands-removed", removed)
        return ph.say("code_edits", key, commands=_codes(values, ph))
    if edit.kind == "ci-run-changed":
        jobs = [str(j) for j in _items(params.get("jobs", "[]")) if j]
        base = "ci-run-changed"
        if not params.get("before"):
            base = "ci-run-gained"  # words only added to the command
        elif not params.get("after"):
            base = "ci-run-lost"
        key = f"{base}-many" if edit.count > 1 else base
        where = _codes(jobs, ph) if jobs else ph.say("code_edits", "the_pipeline")
        return ph.say(
            "code_edits",
            key,
            count=edit.count,
            steps=_codes(_items(params.get("steps", "[]")), ph),
            jobs=where,
            before=ph.code(params.get("before", "")),
            after=ph.code(params.get("after", "")),
        )
    listed = _items(params.get("steps", "[]"))
    key = f"{edit.kind}-many" if edit.count > 1 else edit.kind
    if edit.count == 1 and params.get("unnamed"):
        key = f"{edit.kind}-unnamed"  # its name is its command: say the command once
    return ph.say(
        "code_edits",
        key,
        count=edit.count,
        steps=_codes(listed, ph),
        job=_job(params.get("job", ""), ph),
        run=ph.code(params.get("run", "")),
    )


def jobs_suffix(edit: CodeEdit, ph: Phrases) -> str:
    """`` (in `a`, `b`)`` for a CI list changed alike in several jobs; "" otherwise."""
    jobs = [str(j) for j in _items(edit.params.get("jobs", "[]")) if j]
    return ph.say("code_edits", "in_jobs", jobs=_codes(jobs, ph)) if jobs else ""


def callee_list(callees: str, ph: Phrases) -> str:
    """The functions a changed function now calls (or no longer calls), as code, counted past a few."""
    return _codes(_items(callees), ph)
