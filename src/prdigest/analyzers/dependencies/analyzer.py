"""The ``dependencies`` analyzer: requirement changes, admitted versions, findings."""

from __future__ import annotations

from pathlib import PurePosixPath

from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.dependencies.admission import (
    VersionMentions,
    admission_delta,
    pr_texts,
    versions_considered,
)
from prdigest.analyzers.dependencies.change_kinds import change_kinds
from prdigest.analyzers.dependencies.conflicts import variant_conflicts
from prdigest.analyzers.dependencies.duplication import duplicated_pins, duplicated_rewrites
from prdigest.analyzers.dependencies.ecosystem_changes import ecosystem_changes
from prdigest.analyzers.dependencies.moves import mark_moves
from prdigest.analyzers.dependencies.pairing import Pair, pair_entries
from prdigest.analyzers.dependencies.requirement_lines import strip_comment
from prdigest.analyzers.dependencies.scopes import dynamic_file_scopes, installs_own_checkout, scope_of
from prdigest.analyzers.dependencies.sources import Entry, FileDeclarations, declarations, unread_manifest
from prdigest.analyzers.dependencies.variants import variant_of
from prdigest.analyzers.registry import Analyzer
from prdigest.analyzers.versions import DEFAULT_VERSIONS
from prdigest.models.facts import (
    DependenciesFacts,
    DependencyChange,
    DependencyChangeKind,
    DependencyFinding,
    DependencyScope,
    FilesFacts,
)
from prdigest.models.pullrequest import PullRequest


def _family(pair: Pair) -> str | None:
    for entry in (pair.before, pair.after):
        if entry is not None:
            req = entry.requirement.requirement
            variant = variant_of(req.name, req.extras)
            if variant.variant is not None:
                return variant.family
    if pair.renamed and pair.before is not None:
        return variant_of(pair.before.requirement.requirement.name).family
    if pair.replaced_by or pair.replaces:
        entry = pair.before or pair.after
        assert entry is not None
        return variant_of(entry.requirement.requirement.name).family
    return None


def _scope(declared: FileDeclarations, group: str, read_by: dict[str, DependencyScope]) -> DependencyScope:
    scope = scope_of(declared.source_kind, declared.path, group)
    if scope != "unknown" or declared.source_kind != "requirements":
        return scope
    # The name says nothing: what the PR's own files say about this file, if anything.
    if declared.path in read_by:
        return read_by[declared.path]
    return "dev" if installs_own_checkout(declared.seen_lines) else "unknown"


def _read_by_manifests(pr: PullRequest) -> dict[str, DependencyScope]:
    """Requirements files that the PR's pyproject.toml files read as dependencies or extras."""
    found: dict[str, DependencyScope] = {}
    for change in pr.files:
        if PurePosixPath(change.path).name == "pyproject.toml" and change.content_after:
            found.update(dynamic_file_scopes(change.path, change.content_after))
    return found


def _change(
    declared: FileDeclarations,
    pair: Pair,
    texts: VersionMentions,
    known: dict[str, list[str]],
    read_by: dict[str, DependencyScope],
) -> DependencyChange | None:
    before, after = pair.before, pair.after
    kinds: list[DependencyChangeKind]
    if before is None and after is None:
        return None
    if before is not None and after is not None:
        kinds = change_kinds(before.requirement.requirement, after.requirement.requirement)
        if not kinds:
            return None
        if pair.renamed and "variant-renamed" not in kinds:
            kinds.insert(0, "variant-renamed")
    elif before is None:
        kinds = ["added"]
    else:
        kinds = ["removed", "replaced-by"] if pair.replaced_by else ["removed"]
    main = before if before is not None else after
    assert main is not None
    package = main.requirement.name
    family = _family(pair)
    old_spec = before.requirement.requirement.specifier if before else SpecifierSet()
    new_spec = after.requirement.requirement.specifier if after else SpecifierSet()
    names = {main.requirement.requirement.name, package}
    if family:
        names.add(family)
    if after is not None:
        names.add(after.requirement.requirement.name)
    considered = versions_considered(texts, names, [old_spec, new_spec], known.get(package, ()))
    admitted: list[str] = []
    excluded: list[str] = []
    if before is not None and after is not None:
        admitted, excluded = admission_delta(old_spec, new_spec, considered)
    return DependencyChange(
        path=declared.path,
        package=package,
        before=before.requirement.normalized if before else None,
        after=after.requirement.normalized if after else None,
        kinds=kinds,
        source_kind=declared.source_kind,
        versions_considered=[str(v) for v in considered],
        newly_admitted=admitted,
        newly_excluded=excluded,
        variant_family=family,
        scope=_scope(declared, main.group, read_by),
        group=(after or before or main).group or None if declared.source_kind in ("pyproject", "setup") else None,
        replaced_by=", ".join(pair.replaced_by) or None,
        replaces=pair.replaces,
        condition=_condition(before, after),
    )


def _condition(before: Entry | None, after: Entry | None) -> str | None:
    """The build switch of the new side (or of the removed one), shown with the change."""
    if after is not None and after.condition is not None:
        return after.condition
    return before.condition if before is not None else None


def _unparsable(declared: FileDeclarations) -> list[DependencyFinding]:
    added = [strip_comment(line) for line in declared.added_lines]
    return [
        DependencyFinding(
            kind="unparsable",
            detail=f"{declared.path}: cannot parse requirement {bad.text!r} ({bad.reason})",
            paths=[declared.path],
        )
        for bad in declared.after.unparsable
        if any(bad.text and bad.text in line for line in added)
    ]


def _unread(pr: PullRequest) -> list[DependencyFinding]:
    return [
        DependencyFinding(
            kind="unread-format",
            detail=f"{change.path}: a dependency manifest in a format this analyzer does not read",
            paths=[change.path],
        )
        for change in pr.files
        if unread_manifest(change.path)
    ]


def analyze_dependencies(pr: PullRequest, ctx: AnalysisContext) -> DependenciesFacts:
    known: dict[str, list[str]] = {
        str(canonicalize_name(name)): versions for name, versions in ctx.known_versions.items()
    }
    texts = VersionMentions(pr_texts(pr))
    all_declarations = [d for change in pr.files if (d := declarations(change)) is not None]
    read_by = _read_by_manifests(pr)
    changes: list[DependencyChange] = []
    findings: list[DependencyFinding] = []
    for declared in all_declarations:
        seen: set[tuple[str, str | None, str | None, str | None]] = set()
        for pair in pair_entries(declared):
            change = _change(declared, pair, texts, known, read_by)
            if change is None:
                continue
            # one list included in several extras changes them all alike: told once per file
            key = (change.package, change.before, change.after, change.condition)
            if key not in seen:
                seen.add(key)
                changes.append(change)
        findings.extend(_unparsable(declared))
    for file in pr.files:
        found = ecosystem_changes(file, texts, known)
        if found is not None:
            changes.extend(found[0])
            findings.extend(found[1])
    findings.extend(_unread(pr))
    findings.extend(variant_conflicts(all_declarations))
    findings.extend(duplicated_rewrites(pr))
    findings.extend(duplicated_pins(changes))
    return DependenciesFacts(changes=mark_moves(changes), findings=findings)


def _run(pr: PullRequest, ctx: AnalysisContext) -> DependenciesFacts:
    ctx.result("files", FilesFacts)  # declared order: files first, so reports agree on paths
    return analyze_dependencies(pr, ctx)


ANALYZER = Analyzer(
    name="dependencies", version=DEFAULT_VERSIONS["dependencies"], run=_run, requires=("files",)
)  # v4: scope of plain requirement files; v5: moves marked (moved_from)
