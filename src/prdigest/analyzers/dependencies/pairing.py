"""Pair one file's requirements before and after, so each pair is one change.

Requirements pair by package (and by group in pyproject/setup.cfg/setup.py, where the same
package may sit in several extras, and by the build switch that chooses a setup.py
specifier). Identical requirements cancel out. A specifier that moves under a build switch
(one requirement before, a release and a development one after) pairs with its old self.

CUDA-variant families: a removed variant with a newly added variant of the same family is a
rename (``cupy-cuda12x`` -> ``cupy-cuda13x``). A removal whose family lives on in another
package (``nixl-cu12`` and ``nixl-cu13`` removed, ``nixl`` added) stays a removal, marked
"replaced by" that package, and the addition says what it replaces.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from prdigest.analyzers.dependencies.sources import Entry, FileDeclarations
from prdigest.analyzers.dependencies.variants import variant_of
from prdigest.analyzers.recent import RecentByIdentity

Key = tuple[str, str | None, str]  # (group, condition, package)


@dataclass(frozen=True)
class Pair:
    before: Entry | None
    after: Entry | None
    renamed: bool = False
    replaced_by: list[str] = field(default_factory=list)  # a removal: the family members that take its place
    replaces: list[str] = field(default_factory=list)  # an addition: the family members it takes the place of


def _key(declarations: FileDeclarations, entry: Entry) -> Key:
    grouped = declarations.source_kind in ("pyproject", "setup")
    return (entry.group if grouped else "", entry.condition, entry.requirement.name)


def _family(entry: Entry) -> tuple[str, str | None]:
    req = entry.requirement.requirement
    variant = variant_of(req.name, req.extras)
    return variant.family, variant.variant


def _exact_pairs(
    declarations: FileDeclarations,
) -> tuple[list[Pair], list[Entry], list[Entry]]:
    olds: dict[Key, list[Entry]] = defaultdict(list)
    news: dict[Key, list[Entry]] = defaultdict(list)
    for entry in declarations.before.entries:
        olds[_key(declarations, entry)].append(entry)
    for entry in declarations.after.entries:
        news[_key(declarations, entry)].append(entry)
    pairs: list[Pair] = []
    removed: list[Entry] = []
    added: list[Entry] = []
    for key in list(dict.fromkeys([*olds, *news])):
        old_list = list(olds.get(key, []))
        new_list = list(news.get(key, []))
        for entry in list(old_list):
            same = next((n for n in new_list if n.requirement.normalized == entry.requirement.normalized), None)
            if same is not None:
                old_list.remove(entry)
                new_list.remove(same)
        # A script installing the same requirement twice and now once still installs it:
        # fewer (or more) copies of an unchanged requirement is no change.
        after_texts = {n.requirement.normalized for n in news.get(key, [])}
        before_texts = {o.requirement.normalized for o in olds.get(key, [])}
        old_list = [o for o in old_list if o.requirement.normalized not in after_texts]
        new_list = [n for n in new_list if n.requirement.normalized not in before_texts]
        for old, new in zip(old_list, new_list, strict=False):
            pairs.append(Pair(before=old, after=new))
        removed.extend(old_list[len(new_list) :])
        added.extend(new_list[len(old_list) :])
    return pairs, removed, added


def _switch_pairs(
    declarations: FileDeclarations, removed: list[Entry], added: list[Entry]
) -> tuple[list[Pair], list[Entry], list[Entry]]:
    """Same group and package under a different build switch: the old one became these."""
    pairs: list[Pair] = []
    left_added: list[Entry] = []
    used: set[int] = set()
    for new in added:
        group, _, name = _key(declarations, new)
        match = next(
            (
                i
                for i, old in enumerate(removed)
                if _key(declarations, old)[0] == group and old.requirement.name == name
            ),
            None,
        )
        if match is None:
            left_added.append(new)
            continue
        used.add(match)
        pairs.append(Pair(before=removed[match], after=new))
    return pairs, [old for i, old in enumerate(removed) if i not in used], left_added


def pair_entries(declarations: FileDeclarations) -> tuple[Pair, ...]:
    """The pairs of one file's declarations, made once per declarations object of the last
    few (the key-files and dependencies analyzers both ask, in turn, for one PR's files; the
    declarations are made once per file too, `sources.declarations`, and never changed)."""
    return _RECENT.get(declarations, _pair_entries)


def _pair_entries(declarations: FileDeclarations) -> tuple[Pair, ...]:
    pairs, removed, added = _exact_pairs(declarations)
    switched, removed, added = _switch_pairs(declarations, removed, added)
    pairs.extend(switched)

    consumed: set[int] = set()
    replaces: dict[int, list[str]] = defaultdict(list)
    for old in removed:
        family, variant = _family(old)
        # a variant renamed to another variant: one old, one new, both variants
        renamed = next(
            (
                i
                for i, a in enumerate(added)
                if i not in consumed
                and _family(a)[0] == family
                and variant is not None
                and _family(a)[1] not in (None, variant)
            ),
            None,
        )
        if renamed is not None:
            consumed.add(renamed)
            pairs.append(Pair(before=old, after=added[renamed], renamed=True))
            continue
        # the family lives on in another member (newly added or already there): replaced by it
        successors = [
            (i, a)
            for i, a in enumerate(added)
            if _family(a)[0] == family
            and _family(a)[1] != variant
            and (variant is not None or _family(a)[1] is not None)
        ]
        staying = [
            a
            for a in declarations.after.entries
            if _family(a)[0] == family
            and _family(a)[1] != variant
            and (variant is not None or _family(a)[1] is not None)
            and all(a is not s for _, s in successors)
        ]
        names = list(dict.fromkeys([a.requirement.name for _, a in successors] + [a.requirement.name for a in staying]))
        for index, _ in successors:
            replaces[index].append(old.requirement.name)
        pairs.append(Pair(before=old, after=None, replaced_by=names))
    pairs.extend(
        Pair(before=None, after=a, replaces=list(dict.fromkeys(replaces.get(i, []))))
        for i, a in enumerate(added)
        if i not in consumed
    )
    return tuple(pairs)


# Per process, like functools caches: the pairs depend on nothing but the declarations.
_RECENT: RecentByIdentity[FileDeclarations, tuple[Pair, ...]] = RecentByIdentity(32)
