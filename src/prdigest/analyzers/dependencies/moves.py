"""Moved declarations: a package the PR removes in one place and adds in another (setup.py
folded into pyproject.toml, requirements files into dependency groups, a CI job's install into
a group, one extra to another). Decided here once, as `DependencyChange.moved_from` on the
added change, so the narrator, the risk rules and the prompt read one mark instead of each
pairing removals with additions its own way."""

from __future__ import annotations

from pathlib import PurePosixPath

from prdigest.models.facts import DependencyChange, DependencyScope

# Lists nobody installs but the project's developers and CI jobs ...
_DEVELOPMENT: frozenset[DependencyScope] = frozenset({"dev", "ci"})
# ... and lists the package's users install. A declaration that goes from the first to the
# second is a new dependency for its users, not a move (a test-only package made a requirement).
_USERS: frozenset[DependencyScope] = frozenset({"runtime", "optional", "build"})


def same_users(old: DependencyScope, new: DependencyScope) -> bool:
    """Whether a declaration leaving a list of scope ``old`` for one of scope ``new`` still
    serves who it served (``unknown`` could be either, so it never refuses a move)."""
    return not (old in _DEVELOPMENT and new in _USERS)


def _versions(requirement: str) -> tuple[str, str]:
    """What a move must keep to be unchanged: the versions admitted and the markers."""
    # imported here: the narrator reads `move_sources` of PRs without moves, and a report then
    # does not load packaging's parsers
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        parsed = Requirement(requirement)
    except InvalidRequirement:
        return requirement, ""
    # SpecifierSet compares as a set: ">=1,<2" and "<2,>=1" are one specifier
    return ",".join(sorted(str(s) for s in parsed.specifier)), str(parsed.marker or "")


def _is_removal(change: DependencyChange) -> bool:
    # a package replaced by its family's new member went away; it did not move
    return change.before is not None and change.after is None and not change.replaced_by


def _is_addition(change: DependencyChange) -> bool:
    return change.before is None and change.after is not None and not change.replaces


def _likeliest(change: DependencyChange, removals: list[DependencyChange], taken: set[int]) -> list[DependencyChange]:
    """The removals ``change`` most likely came from: the best one first, then those as likely
    with its versions (the same install dropped from two CI workflows, three examples' setup.py
    folded into one)."""
    versions = _versions(change.after or "")
    folder = PurePosixPath(change.path).parent

    def rank(removal: DependencyChange) -> tuple[bool, bool, bool, bool]:
        return (
            _versions(removal.before or "") != versions,
            removal.scope != change.scope,
            id(removal) in taken,
            PurePosixPath(removal.path).parent != folder,
        )

    best = min(removals, key=rank)  # min() keeps the first of equals
    best_versions = _versions(best.before or "")
    return [best] + [
        r for r in removals if r is not best and rank(r) == rank(best) and _versions(r.before or "") == best_versions
    ]


def mark_moves(changes: list[DependencyChange]) -> list[DependencyChange]:
    """The changes, each addition of a package the PR also removes for the same users marked
    with the place it left (`moved_from`) and whether its versions changed on the way.

    When several removals could be the source, the likeliest is taken: the same versions,
    then the same scope, then one no other addition took, then the same directory (each
    example's setup.cfg to its own pyproject.toml), then the first listed; removals as likely
    with the same versions are places it left too. One removal may be the source of several
    additions (a list split into two requirements files)."""
    removals: dict[str, list[DependencyChange]] = {}
    for change in changes:
        if _is_removal(change):
            removals.setdefault(change.package, []).append(change)
    if not removals:
        return changes
    taken: set[int] = set()
    marked: list[DependencyChange] = []
    for change in changes:
        candidates = [
            removal
            for removal in removals.get(change.package, ())
            if _is_addition(change)
            and same_users(removal.scope, change.scope)
            and (removal.path, removal.group) != (change.path, change.group)
        ]
        if not candidates:
            marked.append(change)
            continue
        sources = _likeliest(change, candidates, taken)
        taken.update(id(s) for s in sources)
        changed = _versions(sources[0].before or "") != _versions(change.after or "")
        paths = list(dict.fromkeys(s.path for s in sources))
        marked.append(change.model_copy(update={"moved_from": paths, "moved_changed": changed}))
    return marked


def move_sources(changes: list[DependencyChange], *, unchanged_only: bool = False) -> set[tuple[str, str]]:
    """(package, path) of every place an addition among ``changes`` moved from (with
    ``unchanged_only``, only of the moves whose versions stayed as they were)."""
    return {(c.package, path) for c in changes if not (unchanged_only and c.moved_changed) for path in c.moved_from}
