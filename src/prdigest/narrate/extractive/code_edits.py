"""What the code change does, in words: one clause per `CodeEdit` fact ("replaces the
try/except import guard of `x` with the platform check `sys.platform == 'win32'`"); script
and CI edits by `step_edits`."""

from __future__ import annotations

from string import Formatter

from prdigest.analyzers.version_names import VERSION_NAMES
from prdigest.models.facts import CodeEdit, Facts
from prdigest.narrate.extractive.step_edits import callee_list, is_step_edit, jobs_suffix, step_edit_clause
from prdigest.words import Phrases

MAX_PER_FILE = 3


def edit_clause(edit: CodeEdit, ph: Phrases) -> str:
    if is_step_edit(edit):
        return step_edit_clause(edit, ph)
    params = {name: ph.code(value) for name, value in edit.params.items() if name != "direction"}
    if "callees" in edit.params:
        params["callee"] = callee_list(edit.params["callees"], ph)
        params["functions"] = callee_list(edit.params.get("functions", "[]"), ph)
    if "decorator" in edit.params:
        params["decorator"] = ph.code("@" + edit.params["decorator"])
    subject = edit.symbol or edit.path
    params["subject"] = ph.code(subject)
    # "in `f`" names the function; a file is named by the line the clause stands in
    params["where"] = ph.say("code_edits", "where", name=ph.code(subject)) if edit.symbol else ""
    # A direction this build has no words for (facts stored by another version) reads "changed".
    direction = f"direction-{edit.params.get('direction', 'changed')}"
    params["direction"] = ph.say("code_edits", direction if ph.has("code_edits", direction) else "direction-changed")
    params["count"] = str(edit.count)
    key: str = edit.kind
    if key == "constant-items-changed":
        has_added, has_removed = bool(edit.params.get("added")), bool(edit.params.get("removed"))
        key = f"{key}-both" if has_added and has_removed else key if has_added else f"{key}-removed"
    if edit.count > 1 and ph.has("code_edits", f"{key}-many"):
        key = f"{key}-many"
    # A parameter the analyzer did not record shows as nothing rather than breaking the report.
    wanted = [name for _, name, _, _ in Formatter().parse(ph.tables["code_edits"][key]) if name]
    clause = ph.say("code_edits", key, **({name: "" for name in wanted} | params))
    return clause + jobs_suffix(edit, ph) if "jobs" in edit.params else clause


def is_version_edit(edit: CodeEdit) -> bool:
    return edit.kind == "constant-changed" and edit.params.get("name", "").rsplit(".", 1)[-1] in VERSION_NAMES


def edits_of(facts: Facts, path: str | None = None, *, versions: bool = True) -> list[CodeEdit]:
    """The PR's code edits (of one file when `path` is given), most telling first; a release's
    version constant only with `versions`."""
    return [e for e in facts.symbols.edits if (path is None or e.path == path) and (versions or not is_version_edit(e))]


def edits_sentence(edits: list[CodeEdit], ph: Phrases, limit: int = MAX_PER_FILE) -> str:
    """Up to `limit` edits as one clause list ("" when there are none)."""
    clauses = list(dict.fromkeys(edit_clause(e, ph) for e in edits))
    return ph.say("code_edits", "sep").join(clauses[:limit])
