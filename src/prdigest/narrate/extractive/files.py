"""The role of each key file and a note on each code excerpt, from the facts about them."""

from __future__ import annotations

import re

from prdigest.facts_view.evidence import key_reason
from prdigest.facts_view.gaps import files_known
from prdigest.facts_view.selection import key_excerpts, key_files
from prdigest.models.facts import CodeEdit, CodeExcerpt, Facts, FileFact
from prdigest.models.narrative import ExcerptNote, FileRole, ImplementationStep, Length
from prdigest.narrate.extractive.changes import short_dependency
from prdigest.narrate.extractive.code_edits import edits_of, edits_sentence
from prdigest.narrate.extractive.step_parts import join_more, symbol_changes
from prdigest.narrate.extractive.text import CODE_SPAN
from prdigest.words import Phrases

# A file as what its role says of its changes reads it (`_changes`): a PR may list a path
# twice (deleted, then added).
FileKey = tuple[str, str, str | None, str]
_CHURN = re.compile(r"\+\d+/−\d+")


def file_roles(
    facts: Facts, length: Length, ph: Phrases, said: dict[FileKey, tuple[list[str], bool]] | None = None
) -> list[FileRole]:
    """``said``: what the PR's other length said of each file in this language (`_changes`),
    filled as files are told (a new dict for each PR and language)."""
    told = {} if said is None else said
    return [FileRole(path=f.path, role=_role(f, facts, ph, length, told)) for f in key_files(facts, length)]


def untold_roles(roles: list[FileRole], steps: list[ImplementationStep], ph: Phrases) -> list[FileRole]:
    """A brief's key files: of a file its steps already tell of, the role keeps only what the
    steps do not show (the same change told twice is what made briefs long). A part is shown
    when every code span of it is in the steps (its counts, when the steps name the file)."""
    told = " ".join(f"{step.title} {step.detail}" for step in steps)
    sep = ph.say("files", "sep")
    kept: list[FileRole] = []
    for role in roles:
        if role.path not in told:
            kept.append(role)
            continue
        parts = [part for part in role.role.split(sep) if part.strip()]
        left = [part for part in parts if not _shown_in(part.strip(), told)]
        kept.append(role.model_copy(update={"role": sep.join(left)}))
    return kept


def _shown_in(part: str, told: str) -> bool:
    if _CHURN.fullmatch(part):
        return True
    spans = CODE_SPAN.findall(part)
    return all(span in told for span in spans) if spans else part in told


def _role(
    file: FileFact,
    facts: Facts,
    ph: Phrases,
    length: Length = "full",
    said: dict[FileKey, tuple[list[str], bool]] | None = None,
) -> str:
    """What the file is and what changes in it; a brief says only what changes, unless
    nothing else is known."""
    parts: list[str] = []
    if len(facts.files.files) == 1 and files_known(facts) and length == "full":  # on a cut list, others went unseen
        parts.append(ph.say("files", "only_file"))
    # A brief needs the reason only when nothing else is said (below).
    reason = key_reason(file, ph.labels) if file.key_reason_code and length == "full" else ""
    if reason:
        parts.append(reason)
    seen = (file.path, file.status, file.previous_path, file.category)
    found = said.get(seen) if said is not None else None
    if found is None:
        found = _changes(file, facts, ph)
        if said is not None:
            said[seen] = found
    changes, has_edits = found
    parts.extend(changes)
    # The code edits say what the change does, rather than how many lines it takes.
    if not has_edits and ("lines" not in file.key_reason_params or length == "brief"):  # else the reason counts them
        parts.append(ph.say("files", "churn", additions=file.additions, deletions=file.deletions))
    if length == "brief" and file.key_reason_code and len(parts) == 1 and parts[0].startswith("+"):
        brief_reason = key_reason(file, ph.labels)
        if brief_reason:
            parts.insert(0, brief_reason)  # only the counts: say what kind of file it is
    return ph.say("files", "sep").join(parts)


def _changes(file: FileFact, facts: Facts, ph: Phrases) -> tuple[list[str], bool]:
    """What happened to the file, the same in a report of either length: its status, kind,
    dependencies, shared logic, symbols and code edits; and whether it has code edits."""
    parts: list[str] = []
    if file.status == "added":
        parts.append(ph.say("files", "added"))
    elif file.status == "removed":
        parts.append(ph.say("files", "removed"))
    elif file.status == "renamed" and file.previous_path:
        parts.append(ph.say("files", "renamed", previous=file.previous_path))
    if file.category == "test":
        parts.append(ph.say("files", "test"))
    elif file.path in facts.tests_ci.ci_files:
        parts.append(ph.say("files", "ci"))
    deps = [c for c in facts.dependencies.changes if c.path == file.path]
    if deps:
        limit = 3 if len(deps) > 4 else 4
        shown = [short_dependency(c, ph) for c in deps[:limit]]
        parts.append(ph.say("files", "dependency", changes=join_more(shown, len(deps) - limit, ph)))
    for finding in facts.dependencies.findings:
        if file.path in finding.paths and finding.kind in ("duplicated-rewrite", "duplicated-pin"):
            others = ph.join([ph.code(p) for p in finding.paths if p != file.path])
            packages = ph.join(finding.packages) or ph.say("files", "same_logic")
            # a pin written twice is no rewrite: each is told as what it is
            key = "finding" if finding.kind == "duplicated-rewrite" else "pin_finding"
            parts.append(ph.say("files", key, others=others, packages=packages))
    for tag in facts.risks.tags:
        for item in tag.items:
            paths = item.params.get("paths", [])
            literal = item.params.get("literal")
            # Facts stored by other analyzer versions may lack the value: then there is nothing to say.
            if item.template == "duplicated-logic-across-files.literal" and literal and file.path in paths:
                others = ph.join([ph.code(p) for p in paths if p != file.path])
                parts.append(ph.say("files", "same_value", others=others, value=ph.code(str(literal))))
    symbols = [s for s in facts.symbols.symbols if s.path == file.path]
    if symbols:
        parts.append(symbol_changes(symbols, ph, limit=2))
    edits = edits_sentence(edits_of(facts, file.path), ph)
    if edits:
        parts.append(edits)
    return parts, bool(edits)


def excerpt_notes(facts: Facts, length: Length, ph: Phrases) -> list[ExcerptNote]:
    return [ExcerptNote(path=e.path, note=_note(e, facts, ph)) for e in key_excerpts(facts, length)]


def _note(excerpt: CodeExcerpt, facts: Facts, ph: Phrases) -> str:
    if excerpt.symbol:
        change = next(
            (s.change for s in facts.symbols.symbols if s.path == excerpt.path and s.name == excerpt.symbol),
            "modified",
        )
        text = ph.say(
            "excerpts", "note", change=ph.say("excerpts", f"change_{change}"), symbol=excerpt.symbol, path=excerpt.path
        )
    else:
        text = ph.say("excerpts", "note_no_symbol", path=excerpt.path)
    if excerpt.start_line is not None:
        text += ph.say("excerpts", "from_line", line=excerpt.start_line)
    shown = _edits_in(excerpt, facts)
    if shown:
        text += ph.say("excerpts", "does", edits=edits_sentence(shown, ph))
    else:
        lines = excerpt.text.splitlines()
        added = sum(1 for line in lines if line.startswith("+"))
        removed = sum(1 for line in lines if line.startswith("-"))
        text += ph.say("excerpts", "counts", added=added, removed=removed)
    if excerpt.truncated:
        text += ph.say("excerpts", "truncated")
    return ph.sentence(text)


def _edits_in(excerpt: CodeExcerpt, facts: Facts) -> list[CodeEdit]:
    """The code edits the excerpt shows: of its symbol, or on the lines it covers."""
    start = excerpt.start_line or 0
    end = start + len(excerpt.text.splitlines())
    return [
        e
        for e in edits_of(facts, excerpt.path)
        if (excerpt.symbol is not None and e.symbol == excerpt.symbol)
        or (e.line is not None and start <= e.line <= end)
    ]
