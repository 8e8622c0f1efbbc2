"""Implementation steps: the changes grouped by module and kind, each with its facts and, where
the PR body explains it, the author's words."""

from __future__ import annotations

from collections import OrderedDict

from prdigest.models.facts import DependencyChange, Facts, FileFact, SymbolChange
from prdigest.models.narrative import ImplementationStep, Length
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.extractive.changes import dependency_fact, dependency_title
from prdigest.narrate.extractive.phrases import Phrases
from prdigest.narrate.extractive.text import key_sentences, sentences_mentioning, split_body

MAX_STEPS = {"full": 8, "brief": 3}
MAX_FILES_PER_STEP = {"full": 6, "brief": 3}

# Steps for files outside source modules, by category, in reading order.
_CATEGORY_STEPS = (("test", "tests_title"), ("infra", "infra_title"), ("config", "config_title"))


def implementation_steps(pr: PullRequest, facts: Facts, length: Length, ph: Phrases) -> list[ImplementationStep]:
    body = split_body(pr.body)
    steps: list[ImplementationStep] = []
    steps.extend(_dependency_steps(facts.dependencies.changes, body.motivation, ph))
    covered = {c.path for c in facts.dependencies.changes}
    symbols_by_path: dict[str, list[SymbolChange]] = {}
    for symbol in facts.symbols.symbols:
        symbols_by_path.setdefault(symbol.path, []).append(symbol)
    remaining = [f for f in facts.files.files if f.path not in covered or symbols_by_path.get(f.path)]
    ci_files = set(facts.tests_ci.ci_files)
    steps.extend(_module_steps([f for f in remaining if f.category == "source"], symbols_by_path, length, ph))
    ci = [f for f in remaining if f.path in ci_files and f.category != "source"]
    if ci:
        detail = _file_list(ci, symbols_by_path, length, ph)
        if facts.tests_ci.ci_jobs:
            jobs = ph.join([ph.code(j) for j in facts.tests_ci.ci_jobs[:6]])
            detail = f"{detail}{ph.tables['quote']['clause_sep']}{ph.say('steps', 'ci_jobs', jobs=jobs)}"
        steps.append(ImplementationStep(title=ph.say("steps", "ci_title"), detail=ph.sentence(detail)))
    rest = [f for f in remaining if f.category != "source" and f.path not in ci_files]
    for category, key in _CATEGORY_STEPS:
        group = [f for f in rest if f.category == category]
        if group:
            detail = ph.sentence(_file_list(group, symbols_by_path, length, ph))
            steps.append(ImplementationStep(title=ph.say("steps", key), detail=detail))
    others = [f for f in rest if f.category not in {c for c, _ in _CATEGORY_STEPS}]
    docs = [f for f in others if f.category == "docs"]
    if docs:
        detail = ph.sentence(_file_list(docs, symbols_by_path, length, ph))
        steps.append(ImplementationStep(title=ph.say("steps", "docs_title"), detail=detail))
    leftover = [f for f in others if f.category != "docs"]
    if leftover:
        detail = ph.sentence(_file_list(leftover, symbols_by_path, length, ph))
        steps.append(ImplementationStep(title=ph.say("steps", "other_title"), detail=detail))
    steps = steps[: MAX_STEPS[length] - (1 if length == "full" else 0)]
    if length == "full":
        merges = [c for c in pr.commits if c.subject.lower().startswith("merge")]
        if merges:
            shas = ph.join([m.sha[:8] for m in merges[:4]])
            steps.append(
                ImplementationStep(
                    title=ph.say("steps", "merges_title"),
                    detail=ph.say("steps", "merges_detail", count=len(merges), shas=shas),
                )
            )
    steps.append(_verification_step(body.tests, facts, length, ph))
    return steps


def _dependency_steps(
    changes: list[DependencyChange], body_paragraphs: list[str], ph: Phrases
) -> list[ImplementationStep]:
    by_path: OrderedDict[str, list[DependencyChange]] = OrderedDict()
    for change in changes:
        by_path.setdefault(change.path, []).append(change)
    steps: list[ImplementationStep] = []
    sep = ph.tables["quote"]["clause_sep"]
    for path, group in by_path.items():
        if len(group) == 1:
            title = dependency_title(group[0], ph)
            detail = dependency_fact(group[0], ph)
        else:
            title = ph.say("dependency", "group_title", count=len(group), path=path)
            detail = sep.join(dependency_fact(c, ph) for c in group)
        why = sentences_mentioning(body_paragraphs, [c.package for c in group])
        if why:
            detail = ph.sentences([detail, ph.say("dependency", "why", quote=ph.quote(why[0]))])
        steps.append(ImplementationStep(title=title, detail=ph.sentence(detail)))
    return steps


def _module_steps(
    files: list[FileFact], symbols_by_path: dict[str, list[SymbolChange]], length: Length, ph: Phrases
) -> list[ImplementationStep]:
    by_module: OrderedDict[str, list[FileFact]] = OrderedDict()
    # Modules with the most changed lines first: that is where the PR's substance is.
    for file in sorted(files, key=lambda f: -(f.additions + f.deletions)):
        by_module.setdefault(file.module, []).append(file)
    steps = []
    for module, group in by_module.items():
        title = ph.say("steps", "module_title", module=ph.labels.module(module))
        steps.append(
            ImplementationStep(title=title, detail=ph.sentence(_file_list(group, symbols_by_path, length, ph)))
        )
    return steps


def _file_list(
    files: list[FileFact], symbols_by_path: dict[str, list[SymbolChange]], length: Length, ph: Phrases
) -> str:
    limit = MAX_FILES_PER_STEP[length]
    lines = [_file_line(f, symbols_by_path.get(f.path, []), ph) for f in files[:limit]]
    if len(files) > limit:
        lines.append(ph.say("steps", "more_files", count=len(files) - limit))
    return ph.tables["quote"]["clause_sep"].join(lines)


def _file_line(file: FileFact, symbols: list[SymbolChange], ph: Phrases) -> str:
    if not symbols:
        return ph.say("steps", "file_line", path=file.path, additions=file.additions, deletions=file.deletions)
    return ph.say(
        "steps",
        "file_symbols",
        path=file.path,
        symbols=symbol_changes(symbols, ph),
        additions=file.additions,
        deletions=file.deletions,
    )


def symbol_changes(symbols: list[SymbolChange], ph: Phrases, limit: int = 5) -> str:
    """``modifies `A`, `B`; removes `C``` grouped by change kind."""
    parts = []
    for change in ("added", "modified", "removed"):
        names = list(dict.fromkeys(s.name for s in symbols if s.change == change))
        if names:
            shown = [ph.code(n) for n in names[:limit]]
            if len(names) > limit:
                shown.append(ph.say("files", "more", count=len(names) - limit))
            parts.append(ph.say("steps", f"symbols_{change}", names=ph.join(shown)))
    return ph.tables["quote"]["clause_sep"].join(parts)


def _verification_step(test_paragraphs: list[str], facts: Facts, length: Length, ph: Phrases) -> ImplementationStep:
    parts = []
    plan = key_sentences(test_paragraphs, 2 if length == "full" else 1)
    if plan:
        parts.append(ph.sentence(ph.say("steps", "verify_plan", quotes=ph.quotes(plan))))
    if facts.tests_ci.tests_changed and facts.tests_ci.test_files:
        paths = ph.join([ph.code(p) for p in facts.tests_ci.test_files[:5]])
        parts.append(ph.say("steps", "verify_tests", paths=paths))
    else:
        parts.append(ph.say("steps", "verify_no_tests"))
    return ImplementationStep(title=ph.say("steps", "verify_title"), detail=ph.sentences(parts))
