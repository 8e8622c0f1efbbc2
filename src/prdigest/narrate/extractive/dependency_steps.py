"""Dependency changes as steps: the same change to the same package in several files is ONE
step naming the files (or their count and kind), and a package removed from some files and
added to others is a move."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from prdigest.models.facts import DependencyChange, FileFact
from prdigest.narrate.extractive.changes import dependency_fact, dependency_title, main_kind, specifier
from prdigest.narrate.extractive.step_parts import Part, WhyFinder, join_more, with_why
from prdigest.words import Phrases

_MANIFEST_KINDS = ("requirements", "pyproject", "setup")


@dataclass
class DependencyGroup:
    kind: str  # main kind ("added", "removed", "cap-added", ...) or "moved"
    packages: list[str] = field(default_factory=list)
    changes: list[DependencyChange] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)  # where the change happened ("moved": the new place)
    from_paths: list[str] = field(default_factory=list)  # "moved": where it was removed


def relevant_changes(changes: list[DependencyChange], files: list[FileFact]) -> list[DependencyChange]:
    """Dependency changes that say something beyond the file they sit in: a deleted file's
    "removed" packages go with the file, and so do a new image's or script's installs.

    A deleted file's removal is kept when the same package, for the same users (scope), is
    added elsewhere: the declaration moved (setup.py to pyproject.toml), and without its old
    place the new one would read as a new dependency."""
    status = {f.path: f.status for f in files}
    added_elsewhere = {_moved_key(c) for c in changes if main_kind(c) == "added"}
    kept = []
    for change in changes:
        file_status = status.get(change.path, "modified")
        if file_status == "removed":
            if main_kind(change) == "removed" and _moved_key(change) in added_elsewhere:
                kept.append(change)
            continue
        if file_status == "added" and change.source_kind not in _MANIFEST_KINDS:
            continue
        kept.append(change)
    return kept


def _moved_key(change: DependencyChange) -> tuple[str, str]:
    return (change.package.lower(), change.scope)


def _key(change: DependencyChange) -> tuple[str, ...]:
    kind = main_kind(change)
    if kind in ("added", "removed"):
        return (kind, change.package.lower(), change.scope)
    before = specifier(change.before, change.package)
    after = specifier(change.after, change.package)
    return (kind, change.package.lower(), before, after)


def group_dependencies(changes: list[DependencyChange]) -> list[DependencyGroup]:
    by_key: OrderedDict[tuple[str, ...], list[DependencyChange]] = OrderedDict()
    for change in changes:
        by_key.setdefault(_key(change), []).append(change)
    groups: list[DependencyGroup] = []
    moved: set[tuple[str, ...]] = set()
    for key, members in by_key.items():
        if key[0] == "removed" and ("added", *key[1:]) in by_key:
            added = by_key[("added", *key[1:])]
            moved.update({key, ("added", *key[1:])})
            # packages moved the same way (same files, same extras) are one step
            same_move = next(
                (
                    g
                    for g in groups
                    if g.kind == "moved"
                    and g.paths == _paths(added)
                    and g.from_paths == _paths(members)
                    and _extras(g.changes, "removed") == _extras(members, "removed")
                    and _extras(g.changes, "added") == _extras(added, "added")
                ),
                None,
            )
            if same_move is not None:
                same_move.packages.append(members[0].package)
                same_move.changes.extend(members + added)
                continue
            groups.append(
                DependencyGroup(
                    kind="moved",
                    packages=[members[0].package],
                    changes=members + added,
                    paths=_paths(added),
                    from_paths=_paths(members),
                )
            )
    for key, members in by_key.items():
        if key in moved:
            continue
        paths = _paths(members)
        same = next(
            (
                g
                for g in groups
                if g.kind == key[0]
                and key[0] in ("added", "removed")
                and g.paths == paths
                and g.changes[0].scope == members[0].scope
            ),
            None,
        )
        if same is not None:
            same.packages.append(members[0].package)
            same.changes.extend(members)
            continue
        groups.append(DependencyGroup(kind=key[0], packages=[members[0].package], changes=members, paths=paths))
    return groups


def _extras(changes: list[DependencyChange], kind: str) -> list[str]:
    """The extras or dependency groups the ``kind`` ("added"/"removed") side of a move sits in."""
    found = [c.group.split(":", 1)[1] for c in changes if c.group and ":" in c.group and main_kind(c) == kind]
    return sorted(dict.fromkeys(found))


MAX_PACKAGES = 6  # packages named in one clause; the rest are counted


def _paths(changes: list[DependencyChange]) -> list[str]:
    return list(dict.fromkeys(c.path for c in changes))


def where(paths: list[str], changes: list[DependencyChange], ph: Phrases) -> str:
    """```a`、`b``` for one or two files, ``5 个 Dockerfile（`a` 等）`` for more."""
    if len(paths) <= 2:
        return ph.join([ph.code(p) for p in paths])
    kinds = {c.source_kind for c in changes if c.path in paths}
    kind = kinds.pop() if len(kinds) == 1 else "other"
    noun = ph.say("dependency_files", kind) if ph.has("dependency_files", kind) else ph.say("dependency_files", "other")
    return ph.say("dependency", "where_many", count=len(paths), noun=noun, first=ph.code(paths[0]))


def group_clause(group: DependencyGroup, ph: Phrases) -> str:
    """The group in one clause: ``在 5 个 Dockerfile 中移除 `pre-commit```."""
    named = [ph.code(p) for p in group.packages]
    packages = join_more(named[:MAX_PACKAGES], len(named) - MAX_PACKAGES, ph)
    if group.kind == "moved":
        source, target = _extras(group.changes, "removed"), _extras(group.changes, "added")
        if group.paths == group.from_paths and (source or target) and source != target:
            # within one manifest: from one extra (or the main list) to another
            main = ph.say("dependency", "main_list")
            return ph.say(
                "dependency",
                "moved_extra",
                packages=packages,
                path=where(group.paths, group.changes, ph),
                source=ph.join([ph.code(e) for e in source]) or main,
                target=ph.join([ph.code(e) for e in target]) or main,
            )
        return ph.say(
            "dependency",
            "moved",
            packages=packages,
            source=where(group.from_paths, group.changes, ph),
            target=where(group.paths, group.changes, ph),
        )
    if len(group.changes) == 1:
        return dependency_fact(group.changes[0], ph)
    place = where(group.paths, group.changes, ph)
    if group.kind in ("added", "removed"):
        text = ph.say("dependency", f"group_{group.kind}", where=place, packages=packages)
        scopes = {c.scope for c in group.changes}
        if len(scopes) == 1 and (scope := scopes.pop()) in ("ci", "dev"):
            text = ph.tables["quote"]["clause_sep"].join([text, ph.say("dependency", f"scope_{scope}")])
        return text
    first = group.changes[0]
    return ph.say(
        "dependency",
        "group_change",
        where=place,
        package=first.package,
        before=specifier(first.before, first.package) or ph.say("dependency", "any_version"),
        after=specifier(first.after, first.package) or ph.say("dependency", "any_version"),
    )


def group_title(group: DependencyGroup, ph: Phrases) -> str:
    if len(group.changes) == 1:
        return dependency_title(group.changes[0], ph)
    package = ph.join(group.packages)
    if group.kind == "moved":
        return ph.say("dependency", "moved_title", package=package)
    key = group.kind if ph.has("dependency_titles", group.kind) else "other"
    return ph.say("dependency_titles", key, package=package)


def dependency_parts(changes: list[DependencyChange], files: list[FileFact], why: WhyFinder, ph: Phrases) -> list[Part]:
    parts = []
    for group in group_dependencies(relevant_changes(changes, files)):
        clause = group_clause(group, ph)
        reason = why.clause_for(group.packages)
        # The step's title names a single change's package; merged into another step, its clause must.
        merged = (
            ph.say("dependency", "named", package=group.packages[0], fact=clause) if len(group.changes) == 1 else clause
        )
        parts.append(Part(title=group_title(group, ph), detail=with_why(clause, reason, ph), clause=merged))
    return parts
