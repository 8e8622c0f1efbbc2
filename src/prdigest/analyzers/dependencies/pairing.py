"""Pair one file's requirements before and after, so each pair is one change.

Requirements pair by package (and by group in pyproject/setup.cfg, where the same package
may sit in several extras). Identical requirements cancel out. A removed variant whose
family still has another variant (or its plain base) after the change pairs with it as a
rename: ``nixl-cu12 …`` -> ``nixl >= 1.1.0``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from prdigest.analyzers.dependencies.sources import Entry, FileDeclarations
from prdigest.analyzers.dependencies.variants import variant_of


@dataclass(frozen=True)
class Pair:
    before: Entry | None
    after: Entry | None
    renamed: bool = False


def _key(declarations: FileDeclarations, entry: Entry) -> tuple[str, str]:
    grouped = declarations.source_kind in ("pyproject", "setup")
    return (entry.group if grouped else "", entry.requirement.name)


def _family(entry: Entry) -> tuple[str, str | None]:
    req = entry.requirement.requirement
    variant = variant_of(req.name, req.extras)
    return variant.family, variant.variant


def pair_entries(declarations: FileDeclarations) -> list[Pair]:
    olds: dict[tuple[str, str], list[Entry]] = defaultdict(list)
    news: dict[tuple[str, str], list[Entry]] = defaultdict(list)
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
        for old, new in zip(old_list, new_list, strict=False):
            pairs.append(Pair(before=old, after=new))
        removed.extend(old_list[len(new_list) :])
        added.extend(new_list[len(old_list) :])

    consumed: set[int] = set()
    for old in removed:
        family, variant = _family(old)
        # Prefer a newly added member of the family, then any member still present.
        candidates = [a for a in added if _family(a)[0] == family and _family(a)[1] != variant]
        candidates += [a for a in declarations.after.entries if _family(a)[0] == family and _family(a)[1] != variant]
        if variant is not None or any(_family(c)[1] is not None for c in candidates):
            target = candidates[0] if candidates else None
        else:
            target = None
        if target is None:
            pairs.append(Pair(before=old, after=None))
            continue
        pairs.append(Pair(before=old, after=target, renamed=True))
        consumed.update(i for i, a in enumerate(added) if a is target)
    pairs.extend(Pair(before=None, after=a) for i, a in enumerate(added) if i not in consumed)
    return pairs
