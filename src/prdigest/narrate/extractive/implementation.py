"""Implementation steps, most important first: source changes by module (with the symbols
they add, change or remove), then dependency changes (one step per distinct change, however
many files carry it), then CI, build and configuration files, then verification, then docs.
Each step says what changed and, where the PR body says it, why.

A length has a step budget; every kind of change present gets a step before any kind gets
a second one, and a kind with more steps than its share is merged into one last step."""

from __future__ import annotations

from prdigest.analyzers.symbol_names import in_test_module, is_private
from prdigest.facts_view.gaps import files_known
from prdigest.models.facts import CodeEdit, Facts, FileFact, SymbolChange
from prdigest.models.narrative import ImplementationStep, Length
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.extractive.code_edits import edits_sentence, is_version_edit
from prdigest.narrate.extractive.dependency_steps import dependency_parts
from prdigest.narrate.extractive.source_steps import source_parts
from prdigest.narrate.extractive.step_parts import (
    Part,
    WhyFinder,
    files_by_status,
    join_more,
    merge_parts,
    needles,
    symbol_changes,
    with_why,
)
from prdigest.narrate.extractive.summary import quoted_lead
from prdigest.narrate.extractive.text import body_sections, key_sentences
from prdigest.words import Phrases

__all__ = ["MAX_STEPS", "file_edits", "implementation_steps"]

MAX_STEPS = {"full": 8, "brief": 3}
CI_MODULES = frozenset({"CI config", "CI scripts"})
_ORDER = ("source", "dependencies", "ci", "infra", "config", "examples", "other")
_TAIL = ("docs",)
# Who gets a step first when the budget is short: configuration files are the first to go.
_PRIORITY = ("source", "dependencies", "ci", "infra", "docs", "config", "examples", "other")
SOURCE_FIRST = {"full": 3, "brief": 1}
MAX_MERGED_CLAUSES = {"full": 12, "brief": 3}  # changes told in a merged step; the rest are counted


def implementation_steps(
    pr: PullRequest, facts: Facts, length: Length, ph: Phrases, edits: dict[str, str] | None = None
) -> list[ImplementationStep]:
    """``edits``: each source file's code edits in words (`file_edits`), when already made."""
    body = body_sections(pr.body, pr.repository)
    why = WhyFinder(body.motivation, length, ph)
    lead = quoted_lead(pr, ph)
    if lead:
        why.use(lead)  # already the one-line summary
    symbols_by_path: dict[str, list[SymbolChange]] = {}
    code_by_path: dict[str, list[SymbolChange]] = {}  # a file's own tests are told in the verification step
    for symbol in facts.symbols.symbols:
        symbols_by_path.setdefault(symbol.path, []).append(symbol)
        if not in_test_module(symbol.name, symbol.language):
            code_by_path.setdefault(symbol.path, []).append(symbol)
    files = list(facts.files.files)
    ci_paths = set(facts.tests_ci.ci_files)

    def is_ci(f: FileFact) -> bool:
        return f.category not in ("source", "test") and (f.path in ci_paths or f.module in CI_MODULES)

    # A file is told by its dependency step when it is a manifest, or when its diff is no more
    # than the dependency lines; scripts and images with other changes keep their own mention.
    per_file: dict[str, int] = {}
    for change in facts.dependencies.changes:
        per_file[change.path] = per_file.get(change.path, 0) + 1
    told_by_dependencies = {
        f.path
        for f in files
        if f.path in per_file
        and not is_ci(f)
        and f.status != "removed"  # a deleted file's packages are not told as dependency steps
        and (
            f.category in ("config", "other")
            or (f.status == "modified" and f.additions + f.deletions <= 2 * per_file[f.path])
        )
    }
    rest = [f for f in files if f.path not in told_by_dependencies and f.category not in ("source", "test")]
    if edits is None:
        edits = file_edits(facts, ph)
    kinds: dict[str, list[Part]] = {
        "source": source_parts(
            [f for f in files if f.category == "source"],
            code_by_path,
            length,
            why,
            ph,
            edits,
        ),
        "dependencies": dependency_parts(facts.dependencies.changes, files, why, ph),
        "ci": _files_part("ci_title", [f for f in rest if is_ci(f)], code_by_path, facts, length, why, ph, edits),
        "infra": _files_part(
            "infra_title", [f for f in rest if f.category == "infra" and not is_ci(f)], code_by_path, None, length,
            why, ph, edits,
        ),
        "config": _files_part(
            "config_title", [f for f in rest if f.category == "config" and not is_ci(f)], code_by_path, None,
            length, why, ph, edits,
        ),
        "examples": _files_part(
            "examples_title", [f for f in rest if f.category == "example"], code_by_path, None, length, why, ph
        ),
        "docs": _files_part("docs_title", [f for f in rest if f.category == "docs"], code_by_path, None, length,
                            why, ph),
        "other": _files_part(
            "other_title", [f for f in rest if f.category == "other"], code_by_path, None, length, why, ph
        ),
    }  # fmt: skip
    shares = _shares(kinds, MAX_STEPS[length] - 1, length)
    steps: list[ImplementationStep] = []
    for kind in _ORDER:
        steps.extend(p.step() for p in _fit(kinds[kind], shares.get(kind, 0), kind, ph, length))
    spare = MAX_STEPS[length] - 1 - sum(shares.values())
    if length == "full" and spare > 0:
        # The PR's own merge commit (all a source may know of a merge PR's commits) merged no base.
        merges = [c for c in pr.commits if c.subject.lower().startswith("merge") and c.sha != pr.merge_commit_sha]
        if merges:
            shas = ph.join([m.sha[:8] for m in merges[:4]])
            steps.append(
                ImplementationStep(
                    title=ph.say("steps", "merges_title"),
                    detail=ph.say("steps", "merges_detail", count=len(merges), shas=shas),
                )
            )
    steps.append(_verification_step(body.tests, facts, symbols_by_path, length, ph))
    for kind in _TAIL:
        steps.extend(p.step() for p in _fit(kinds[kind], shares.get(kind, 0), kind, ph, length))
    return steps


def file_edits(facts: Facts, ph: Phrases) -> dict[str, str]:
    """What the code change of each file with code edits does, in words, a release's version
    constant aside; the same in a report of either length."""
    by_path: dict[str, list[CodeEdit]] = {}
    for edit in facts.symbols.edits:
        if not is_version_edit(edit):
            by_path.setdefault(edit.path, []).append(edit)
    return {path: edits_sentence(found, ph) for path, found in by_path.items()}


def _shares(kinds: dict[str, list[Part]], budget: int, length: Length) -> dict[str, int]:
    """Steps per kind: the source first gets a few (it is where the substance is), then every
    other kind one in order of importance, then what is left goes to the first kinds."""
    present = [k for k in _PRIORITY if kinds[k]]
    shares = {k: 0 for k in present}
    if "source" in present:
        shares["source"] = min(len(kinds["source"]), SOURCE_FIRST[length], budget)
        budget -= shares["source"]
    for kind in present:
        if budget > 0 and shares[kind] == 0:
            shares[kind] = 1
            budget -= 1
    for kind in present:
        extra = min(budget, len(kinds[kind]) - shares[kind])
        if extra > 0:
            shares[kind] += extra
            budget -= extra
    return shares


def _fit(parts: list[Part], share: int, kind: str, ph: Phrases, length: Length) -> list[Part]:
    if share <= 0:
        return []
    if len(parts) <= share:
        return parts
    head = parts[: share - 1]
    title = ph.say("steps", f"rest_{kind}" if head or not ph.has("steps", f"all_{kind}") else f"all_{kind}")
    return [*head, merge_parts(parts[share - 1 :], title, ph, MAX_MERGED_CLAUSES[length])]


def _files_part(
    title_key: str,
    files: list[FileFact],
    symbols_by_path: dict[str, list[SymbolChange]],
    facts: Facts | None,
    length: Length,
    why: WhyFinder,
    ph: Phrases,
    edits: dict[str, str] | None = None,
) -> list[Part]:
    """``edits``: what each file's change does, in words (a script's steps, a CI step's new
    command), told in place of its line counts."""
    if not files:
        return []
    detail = files_by_status(files, symbols_by_path, length, ph, edits)
    if facts is not None:
        jobs = facts.tests_ci.ci_jobs
        if jobs:
            listed = ph.join([ph.code(j) for j in jobs[:5]])
            detail += ph.tables["quote"]["clause_sep"] + ph.say("steps", "ci_jobs", jobs=listed)
    found = [s for f in files for s in symbols_by_path.get(f.path, [])]
    reason = why.clause_for(needles(files, found))
    clause = ph.say("steps", "kind_clause", kind=ph.say("steps", title_key), files=_brief_list(files, ph))
    return [Part(title=ph.say("steps", title_key), detail=with_why(detail, reason, ph), clause=clause)]


def _brief_list(files: list[FileFact], ph: Phrases) -> str:
    return join_more([ph.code(f.path) for f in files[:2]], len(files) - 2, ph)


def _verification_step(
    test_paragraphs: list[str],
    facts: Facts,
    symbols_by_path: dict[str, list[SymbolChange]],
    length: Length,
    ph: Phrases,
) -> ImplementationStep:
    parts = []
    # Table rows and one-word fragments ("passed**") make poor quotes.
    candidates = [p for p in test_paragraphs if len(p) >= 20]
    plan = [s for s in key_sentences(candidates, 2 if length == "full" else 1) if len(s) >= 20]
    if plan:
        parts.append(ph.sentence(ph.say("steps", "verify_plan", quotes=ph.quotes(plan))))
    test_files = [f for f in facts.files.files if f.category == "test" and f.status != "removed"]
    removed = facts.tests_ci.removed_test_files
    if removed:
        # A deleted test is told as a deletion, never as tests that came with the change.
        limit = 4 if len(removed) <= 4 else 3
        shown = join_more([ph.code(p) for p in removed[:limit]], len(removed) - limit, ph)
        parts.append(ph.say("steps", "verify_removed", paths=shown))
    if facts.tests_ci.tests_changed and (facts.tests_ci.test_files or facts.tests_ci.in_file_tests):
        paths = facts.tests_ci.test_files + facts.tests_ci.in_file_tests
        limit = 4 if len(paths) <= 4 else 3
        parts.append(
            ph.say(
                "steps", "verify_tests", paths=join_more([ph.code(p) for p in paths[:limit]], len(paths) - limit, ph)
            )
        )
        # Helpers nested in a test say nothing about what is tested.
        changed = [s for f in test_files for s in symbols_by_path.get(f.path, []) if not is_private(s.name, s.language)]
        changed += [
            s
            for path in facts.tests_ci.in_file_tests
            for s in symbols_by_path.get(path, [])
            if in_test_module(s.name, s.language)
        ]
        if changed:
            parts.append(ph.say("steps", "verify_symbols", changes=symbol_changes(changed, ph, 3)))
    elif not files_known(facts):
        parts.append(ph.say("steps", "verify_unknown_files"))
    elif removed:
        parts.append(ph.say("steps", "verify_only_removed"))
    else:
        parts.append(ph.say("steps", "verify_no_tests"))
    return ImplementationStep(title=ph.say("steps", "verify_title"), detail=ph.sentences(parts))
