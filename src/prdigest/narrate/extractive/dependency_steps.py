"""Dependency changes as steps: the same change to the same package in several files is ONE
step naming the files (or their count and kind), and a package removed from some files and
added to others is a move."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from prdigest.analyzers.dependencies.moves import move_sources
from prdigest.models.facts import DependencyChange, FileFact
from prdigest.narrate.extractive.changes import dependency_fact, dependency_title, main_kind, specifier
from prdigest.narrate.extractive.step_parts import Part, WhyFinder, join_more, with_why
from prdigest.words import Phrases

_MANIFEST_KINDS = ("requirements", "pyproject", "setup", "go", "cargo", "npm")


@dataclass
class DependencyGroup:
    kind: str  # main kind ("added", "removed", "cap-added", ...) or "moved"
    packages: list[str] = field(default_factory=list)
    changes: list[DependencyChange] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)  # where the change happened ("moved": the new place)
    from_paths: list[str] = field(default_factory=list)  # "moved": where it was removed
    moved_changed: bool = False  # "moved": its versions or markers changed on the way


def relevant_changes(changes: list[DependencyChange], files: list[FileFact]) -> list[DependencyChange]:
    """Dependency changes that say something beyond the file they sit in: a deleted file's
    "removed" packages go with the file, and so do a new image's or script's installs.

    A deleted file's removal is kept when an addition the narration keeps moved from it (the
    analyzer's `moved_from`): without its old place the new one would read as a new dependency."""
    status = {f.path: f.status for f in files}

    def own(change: DependencyChange) -> bool:
        file_status = status.get(change.path, "modified")
        if file_status == "removed":
            return False
        return file_status != "added" or change.source_kind in _MANIFEST_KINDS

    sources = move_sources([c for c in changes if own(c)])
    return [c for c in changes if own(c) or _is_source(c, sources)]


def _is_source(change: DependencyChange, sources: set[tuple[str, str]]) -> bool:
    return change.after is None and (change.package, change.path) in sources


def _key(change: DependencyChange) -> tuple[str, ...]:
    kind = main_kind(change)
    if kind in ("added", "removed"):
        return (kind, change.package.lower(), change.scope)
    before = specifier(change.before, change.package)
    after = specifier(change.after, change.package)
    return (kind, change.package.lower(), before, after)


def _moves(changes: list[DependencyChange]) -> list[DependencyGroup]:
    """One "moved" group per package the analyzer marked as moved (its additions with
    `moved_from` and the removals they left), packages moved alike (same files, same extras,
    versions unchanged) merged into one."""
    additions: OrderedDict[str, list[DependencyChange]] = OrderedDict()
    for change in changes:
        if change.moved_from:
            additions.setdefault(change.package, []).append(change)
    groups: list[DependencyGroup] = []
    for package, added in additions.items():
        sources = move_sources(added)
        removed = [c for c in changes if _is_source(c, sources)]
        if not removed:
            continue  # the place it left is not told (e.g. a CI tool): the addition stands alone
        members = removed + added
        changed = any(c.moved_changed for c in added)
        same_move = next(
            (
                g
                for g in groups
                if not changed
                and not g.moved_changed
                and g.paths == _paths(added)
                and g.from_paths == _paths(removed)
                and _extras(g.changes, "removed") == _extras(removed, "removed")
                and _extras(g.changes, "added") == _extras(added, "added")
            ),
            None,
        )
        if same_move is not None:
            same_move.packages.append(package)
            same_move.changes.extend(members)
            continue
        groups.append(
            DependencyGroup(
                kind="moved",
                packages=[package],
                changes=members,
                paths=_paths(added),
                from_paths=_paths(removed),
                moved_changed=changed,
            )
        )
    return groups


def group_dependencies(changes: list[DependencyChange]) -> list[DependencyGroup]:
    groups = _moves(changes)
    moved = {id(c) for g in groups for c in g.changes}
    by_key: OrderedDict[tuple[str, ...], list[DependencyChange]] = OrderedDict()
    for change in changes:
        if id(change) not in moved:
            by_key.setdefault(_key(change), []).append(change)
    for key, members in by_key.items():
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
        return _moved_clause(group, packages, ph)
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


def _moved_clause(group: DependencyGroup, packages: str, ph: Phrases) -> str:
    source, target = _extras(group.changes, "removed"), _extras(group.changes, "added")
    if group.paths == group.from_paths and (source or target) and source != target:
        # within one manifest: from one extra (or the main list) to another
        main = ph.say("dependency", "main_list")
        text = ph.say(
            "dependency",
            "moved_extra",
            packages=packages,
            path=where(group.paths, group.changes, ph),
            source=ph.join([ph.code(e) for e in source]) or main,
            target=ph.join([ph.code(e) for e in target]) or main,
        )
    else:
        text = ph.say(
            "dependency",
            "moved",
            packages=packages,
            source=where(group.from_paths, group.changes, ph),
            target=where(group.paths, group.changes, ph),
        )
    if not group.moved_changed:
        return text
    # a move that also changed the versions says so: the move alone would hide a bump
    added = next(c for c in group.changes if c.moved_changed)
    left = next(c for c in group.changes if _is_source(c, {(added.package, added.moved_from[0])}))
    any_version = ph.say("dependency", "any_version")
    versions = ph.say(
        "dependency",
        "moved_versions",
        before=specifier(left.before, left.package) or any_version,
        after=specifier(added.after, added.package) or any_version,
    )
    return ph.tables["quote"]["clause_sep"].join([text, versions])


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
