"""What kind of change a PR is, in facts: its shape and its dependency changes in words."""

from __future__ import annotations

from functools import lru_cache

from prdigest.facts_view.gaps import files_known
from prdigest.models.facts import DependencyChange, DependencyChangeKind, Facts
from prdigest.words import Phrases

Shape = str  # dependency-only | config-only | ci-only | tests-only | docs-only | non-source | source | empty | unknown

# Most telling first; every kind of the vocabulary (tests check it is complete).
_KIND_ORDER: tuple[DependencyChangeKind, ...] = (
    "cap-to-exclusion",
    "cap-relaxed",
    "cap-tightened",
    "cap-added",
    "exclusion-added",
    "exclusion-removed",
    "floor-raised",
    "floor-lowered",
    "pinned",
    "unpinned",
    "pin-changed",
    "downgraded",
    "variant-renamed",
    "replaced-by",
    "extras-changed",
    "markers-changed",
    "added",
    "removed",
    "other",
)


def change_shape(facts: Facts) -> Shape:
    files = facts.files.files
    if not files_known(facts):
        return "unknown"  # a kind read from part of the files could be wrong
    if not files:
        return "empty"
    categories = {f.category for f in files}
    dep_paths = {c.path for c in facts.dependencies.changes}
    if dep_paths and all(f.path in dep_paths for f in files):
        return "dependency-only"
    if facts.tests_ci.ci_only:
        return "ci-only"
    if categories == {"test"}:
        return "tests-only"
    if categories == {"docs"}:
        return "docs-only"
    if categories <= {"config", "infra", "docs"}:
        return "config-only"
    if "source" not in categories:
        return "non-source"  # e.g. version.txt, data files: no code changes
    return "source"


def specifier(text: str | None, package: str) -> str:
    """The version part of a requirement line (``<14.1.0`` of ``cupy-cuda13x<14.1.0``, ``v1.36.8``
    of go.mod's ``google.golang.org/protobuf v1.36.8``)."""
    if text is None:
        return ""
    found = _specifier_of(text)
    # a line `packaging` does not read (go.mod, Cargo.toml, package.json) is "name requirement"
    return found.removeprefix(package).lstrip() if found.startswith(f"{package} ") else found


@lru_cache(maxsize=4096)
def _specifier_of(text: str) -> str:
    # Kept by line: narrating a PR in every language and length reads each line ~10 times,
    # and parsing it with `packaging` was ~13% of narrating. Imported here: a report of a PR
    # without dependency changes does not load packaging's parsers.
    from packaging.requirements import InvalidRequirement, Requirement

    line = text.split("#", 1)[0].strip()
    try:
        requirement = Requirement(line)
    except InvalidRequirement:
        return line.replace("`", "'")
    spec = str(requirement.specifier)
    if requirement.marker is not None:
        spec = f"{spec}; {requirement.marker}".strip()
    return spec


def main_kind(change: DependencyChange) -> str:
    for kind in _KIND_ORDER:
        if kind in change.kinds:
            return kind
    if change.before is None:
        return "added"
    if change.after is None:
        return "removed"
    return "other"


def dependency_title(change: DependencyChange, ph: Phrases) -> str:
    return ph.say("dependency_titles", main_kind(change), package=change.package)


def dependency_fact(change: DependencyChange, ph: Phrases) -> str:
    """``<14.1.0`` → ``!=14.1.0`` in PATH; newly admits 14.1.1 (facts only)."""
    any_version = ph.say("dependency", "any_version")
    before = specifier(change.before, change.package) or any_version
    after = specifier(change.after, change.package) or any_version
    if change.before is None:
        text = ph.say("dependency", "added", after=_requirement(change.after), path=change.path)
    elif change.after is None:
        text = ph.say("dependency", "removed", before=_requirement(change.before), path=change.path)
    else:
        text = ph.say("dependency", "change", before=before, after=after, path=change.path)
    clauses = [text]
    if (extra := _extra(change.group)) is not None:
        clauses.append(ph.say("dependency", "extra", extra=extra))
    if change.condition:
        clauses.append(ph.say("dependency", "condition", condition=change.condition.replace("`", "'")))
    if change.replaced_by:
        clauses.append(ph.say("dependency", "replaced_by", packages=ph.code(change.replaced_by)))
    if change.replaces:
        clauses.append(ph.say("dependency", "replaces", packages=ph.join([ph.code(p) for p in change.replaces])))
    if "downgraded" in change.kinds:
        clauses.append(ph.say("dependency", "downgraded"))
    if change.scope in ("ci", "dev"):
        clauses.append(ph.say("dependency", f"scope_{change.scope}"))
    if set(change.kinds) <= {"pin-changed", "pinned"}:
        # one exact version for another: what it admits and excludes is no news
        return ph.tables["quote"]["clause_sep"].join(clauses)
    if "cap-to-exclusion" in change.kinds:
        clauses.append(ph.say("dependency", "cap_to_exclusion"))
    if change.newly_admitted:
        clauses.append(ph.say("dependency", "admits", versions=ph.join(change.newly_admitted)))
    if change.newly_excluded:
        clauses.append(ph.say("dependency", "excludes", versions=ph.join(change.newly_excluded)))
    return ph.tables["quote"]["clause_sep"].join(clauses)


def _extra(group: str | None) -> str | None:
    """The extra or dependency group a change sits in (``optional:test`` -> ``test``)."""
    if group is None or ":" not in group:
        return None
    return group.split(":", 1)[1].replace("`", "'")


def short_dependency(change: DependencyChange, ph: Phrases) -> str:
    """``cupy-cuda13x `<14.1.0` → `!=14.1.0``` for one-liners."""
    any_version = ph.say("dependency", "any_version")
    before = specifier(change.before, change.package) or any_version
    after = specifier(change.after, change.package) or any_version
    if change.before is None:
        return f"+ `{_requirement(change.after)}`"
    if change.after is None:
        return f"− `{_requirement(change.before)}`"
    return f"{change.package} `{before}` → `{after}`"


def _requirement(text: str | None) -> str:
    return (text or "").split("#", 1)[0].strip().replace("`", "'")


def caps_removed(change: DependencyChange) -> bool:
    """True when the change stops blocking future releases (a cap or pin loosened)."""
    return any(k in change.kinds for k in ("cap-to-exclusion", "cap-relaxed", "unpinned"))


def reaches_users(change: DependencyChange) -> bool:
    """False for a CI tool install or a development list: what users install is unchanged."""
    return change.scope not in ("ci", "dev")


def caps_added(change: DependencyChange) -> bool:
    return any(k in change.kinds for k in ("cap-added", "cap-tightened"))
