"""Variant conflicts: two CUDA variants of one family installed together.

``nixl-cu12`` and ``nixl-cu13`` in the same requirements file (or the same ``pip install``
command) both get installed, and the wrong extension may load. Only conflicts the PR
introduces or changes are reported; one that was already there unchanged is not news.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import PurePosixPath

from prdigest.analyzers.dependencies.sources import DeclaredSide, Entry, FileDeclarations
from prdigest.analyzers.dependencies.variants import variant_of
from prdigest.models.facts import DependencyFinding


def _units(side: DeclaredSide, included: list[Entry]) -> dict[str, list[Entry]]:
    units: dict[str, list[Entry]] = defaultdict(list)
    for entry in side.entries:
        units[entry.group].append(entry)
    if included:
        units[""].extend(included)
    return units


def _families(entries: list[Entry]) -> dict[str, set[str]]:
    families: dict[str, set[str]] = defaultdict(set)
    for entry in entries:
        req = entry.requirement.requirement
        if req.marker is not None:
            continue  # environment markers usually make variants mutually exclusive
        variant = variant_of(req.name, req.extras)
        if variant.variant is not None:
            families[variant.family].update(variant.variant.split("+"))
    return families


def _included_after(declarations: FileDeclarations, by_path: dict[str, FileDeclarations]) -> list[Entry]:
    # Follow -r/-c only to files the PR itself changes: other files' contents are unknown.
    found: list[Entry] = []
    base = PurePosixPath(declarations.path).parent
    for reference in declarations.after.references:
        target = by_path.get(str(base / reference.target)) or by_path.get(reference.target)
        if target is not None and target is not declarations and reference.option == "-r":
            found.extend(target.after.entries)
    return found


def variant_conflicts(all_declarations: list[FileDeclarations]) -> list[DependencyFinding]:
    by_path = {d.path: d for d in all_declarations}
    findings: list[DependencyFinding] = []
    for declarations in all_declarations:
        before_sets: list[set[str]] = []
        for entries in _units(declarations.before, []).values():
            before_sets.extend(_families(entries).values())
        included = _included_after(declarations, by_path)
        for unit, entries in _units(declarations.after, included).items():
            for family, variants in _families(entries).items():
                if len(variants) < 2 or variants in before_sets:
                    continue
                where = declarations.path + (f" ({unit})" if unit else "")
                members = sorted(
                    {
                        e.requirement.normalized
                        for e in entries
                        if variant_of(e.requirement.requirement.name, e.requirement.requirement.extras).family == family
                    }
                )
                findings.append(
                    DependencyFinding(
                        kind="variant-conflict",
                        detail=(
                            f"{where} installs {len(variants)} variants of {family} together "
                            f"({', '.join(sorted(variants))}): {'; '.join(members)}"
                        ),
                        paths=[declarations.path],
                        packages=[family],
                    )
                )
    return findings
