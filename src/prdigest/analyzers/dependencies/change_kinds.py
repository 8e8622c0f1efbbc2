"""What kind of change one requirement went through, from its specifiers.

Everything is read through `packaging` (`Requirement`, `Specifier`, `Version`): a cap is an
upper bound (``<``, ``<=``, ``~=``, ``==X.*``), a floor a lower bound, a pin an exact ``==``
(or ``===``), an exclusion a ``!=``. Caps and floors compare as (version, inclusive) pairs
so ``<=1.2`` counts as looser than ``<1.2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from packaging.requirements import Requirement
from packaging.specifiers import InvalidSpecifier, Specifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from prdigest.analyzers.dependencies.variants import variant_of
from prdigest.models.facts import DependencyChangeKind


class Ordered(Protocol):
    """A version of any ecosystem's scheme: `packaging`'s, or a semantic version (go.mod,
    Cargo.toml, package.json, see `ecosystems`)."""

    def __lt__(self, other: Any, /) -> bool: ...
    def __gt__(self, other: Any, /) -> bool: ...


Bound = tuple[Ordered, bool]  # (version, inclusive)


@dataclass(frozen=True)
class SpecShape:
    pin: str | None
    cap: Bound | None
    floor: Bound | None
    exclusions: frozenset[str]
    # the one version pinned, when one is (two different pins admit nothing)
    pinned: Ordered | None = None


def _version(text: str) -> Version | None:
    try:
        return Version(text.removesuffix(".*"))
    except InvalidVersion:
        return None


def _compatible_cap(version: Version) -> Version:
    # ~=1.4.5 means >=1.4.5, ==1.4.*: the cap is 1.5
    release = list(version.release[:-1]) if len(version.release) > 1 else list(version.release)
    release[-1] += 1
    return Version(".".join(str(part) for part in release))


def _wildcard_cap(version: Version) -> Version:
    release = list(version.release)
    release[-1] += 1
    return Version(".".join(str(part) for part in release))


def _lowest_cap(a: Bound | None, b: Bound) -> Bound:
    return b if a is None or (b[0], b[1]) < (a[0], a[1]) else a


def _highest_floor(a: Bound | None, b: Bound) -> Bound:
    # for floors, exclusive (>) is tighter than inclusive (>=) at the same version
    return b if a is None or (b[0], not b[1]) > (a[0], not a[1]) else a


def spec_shape(specifiers: SpecifierSet) -> SpecShape:
    pins: set[str] = set()
    cap: Bound | None = None
    floor: Bound | None = None
    exclusions: set[str] = set()
    # A SpecifierSet iterates in hash order, which changes between processes: read it sorted.
    for spec in sorted(specifiers, key=str):
        version = _version(spec.version)
        if version is None:
            continue  # "===" with a non-PEP 440 string: nothing to order
        operator = spec.operator
        wildcard = spec.version.endswith(".*")
        if operator in ("==", "===") and not wildcard:
            pins.add(str(version))
        elif operator == "==" and wildcard:
            floor = _highest_floor(floor, (version, True))
            cap = _lowest_cap(cap, (_wildcard_cap(version), False))
        elif operator == "!=":
            exclusions.add(spec.version)
        elif operator in ("<", "<="):
            cap = _lowest_cap(cap, (version, operator == "<="))
        elif operator in (">", ">="):
            floor = _highest_floor(floor, (version, operator == ">="))
        elif operator == "~=":
            floor = _highest_floor(floor, (version, True))
            cap = _lowest_cap(cap, (_compatible_cap(version), False))
    # Two different pins admit nothing; keep them all so equal sets compare equal.
    pin = ",".join(sorted(pins)) if pins else None
    pinned = Version(pin) if pin is not None and len(pins) == 1 else None
    return SpecShape(pin=pin, cap=cap, floor=floor, exclusions=frozenset(exclusions), pinned=pinned)


def _specifier_kinds(old: SpecifierSet, new: SpecifierSet) -> list[DependencyChangeKind]:
    return shape_kinds(spec_shape(old), spec_shape(new))


def shape_kinds(before: SpecShape, after: SpecShape) -> list[DependencyChangeKind]:
    """The kinds of change from one shape of constraint to another, whatever the ecosystem."""
    kinds: list[DependencyChangeKind] = []
    if before.pin != after.pin:
        if before.pin is None:
            kinds.append("pinned")
        elif after.pin is None:
            kinds.append("unpinned")
        else:
            kinds.append("pin-changed")
    added_exclusions = after.exclusions - before.exclusions
    removed_exclusions = before.exclusions - after.exclusions
    cap_to_exclusion = False
    # A pin is its own floor and cap: going to or from one says it all.
    bounds_matter = before.pin is None and after.pin is None
    if bounds_matter and before.cap != after.cap:
        if before.cap is None:
            kinds.append("cap-added")
        elif after.cap is None and added_exclusions:
            cap_to_exclusion = True
            kinds.append("cap-to-exclusion")
        elif after.cap is None or (after.cap[0], after.cap[1]) > (before.cap[0], before.cap[1]):
            kinds.append("cap-relaxed")
        else:
            kinds.append("cap-tightened")
    if added_exclusions and not cap_to_exclusion:
        kinds.append("exclusion-added")
    if removed_exclusions:
        kinds.append("exclusion-removed")
    if bounds_matter and before.floor != after.floor:
        if before.floor is None:
            kinds.append("floor-raised")
        elif after.floor is None:
            kinds.append("floor-lowered")
        elif (after.floor[0], not after.floor[1]) > (before.floor[0], not before.floor[1]):
            kinds.append("floor-raised")
        else:
            kinds.append("floor-lowered")
    if before != after and _downgraded(before, after):
        kinds.append("downgraded")
    return kinds


def _lowest_allowed(shape: SpecShape) -> Bound | None:
    if shape.pinned is not None:
        return (shape.pinned, True)
    return shape.floor


def _highest_allowed(shape: SpecShape) -> Bound | None:
    if shape.pinned is not None:
        return (shape.pinned, True)
    return shape.cap


def _downgraded(before: SpecShape, after: SpecShape) -> bool:
    """Everything the new constraint admits lies below what the old one required:
    ``>=8.3.5`` -> ``==7.4.4``, ``==2.1`` -> ``<2.0``."""
    floor = _lowest_allowed(before)
    top = _highest_allowed(after)
    if floor is None or top is None:
        return False
    if top[0] != floor[0]:
        return top[0] < floor[0]
    # same version: only ``<X`` (or ``<=X`` against ``>X``) admits nothing the old one did
    return not (top[1] and floor[1])


def change_kinds(old: Requirement, new: Requirement) -> list[DependencyChangeKind]:
    """The kinds of change from ``old`` to ``new`` (empty when they are equivalent)."""
    kinds: list[DependencyChangeKind] = []
    old_variant = variant_of(old.name, old.extras)
    new_variant = variant_of(new.name, new.extras)
    if old_variant.family == new_variant.family and old_variant.variant != new_variant.variant:
        kinds.append("variant-renamed")
    if old.extras != new.extras:
        kinds.append("extras-changed")
    if str(old.marker or "") != str(new.marker or ""):
        kinds.append("markers-changed")
    kinds.extend(_specifier_kinds(old.specifier, new.specifier))
    if not kinds and (str(old.specifier) != str(new.specifier) or old.url != new.url):
        kinds.append("other")
    return kinds


def parse_specifier(text: str) -> SpecifierSet | None:
    try:
        return SpecifierSet(text)
    except InvalidSpecifier:
        return None


def specifier_versions(specifiers: SpecifierSet) -> list[str]:
    """The versions a specifier set names, e.g. ``14.1.0`` for ``!=14.1.0``."""
    found: list[str] = []
    for spec in specifiers:
        if isinstance(spec, Specifier) and (version := _version(spec.version)) is not None:
            found.append(str(version))
    return found
