"""The requirement changes of one changed go.mod, Cargo.toml or package.json (`ecosystems`),
as the same `DependencyChange` facts the Python manifests give: kinds from the shapes of the
two requirements, and the versions newly admitted or excluded among those the two sides name,
the PR's texts write next to the package, and the caller knows were released."""

from __future__ import annotations

from collections import defaultdict

import semantic_version as sv
from packaging.utils import canonicalize_name

from prdigest.analyzers.dependencies.admission import VersionMentions, mentioned_versions
from prdigest.analyzers.dependencies.ecosystems import (
    Ecosystem,
    ManifestEntry,
    ManifestSide,
    admission_delta,
    ecosystem_of,
    entry_scope,
    kinds_of,
    named_versions,
    read_manifest,
    semantic,
    written,
)
from prdigest.diff import file_diff
from prdigest.models.facts import DependencyChange, DependencyChangeKind, DependencyFinding
from prdigest.models.pullrequest import FileChange, FileStatus


def _sides(change: FileChange, ecosystem: Ecosystem) -> tuple[ManifestSide, ManifestSide] | None:
    before = "" if change.status == FileStatus.ADDED else change.content_before
    after = "" if change.status == FileStatus.REMOVED else change.content_after
    if before is not None and after is not None:
        return read_manifest(ecosystem, before), read_manifest(ecosystem, after)
    if ecosystem != "go" or not change.patch:
        return None  # TOML and JSON are not read from pieces of a file
    view = file_diff(change)
    old, new = "\n".join(view.old_side()), "\n".join(view.new_side())
    return read_manifest(ecosystem, old, fragments=True), read_manifest(ecosystem, new, fragments=True)


def _pairing_key(ecosystem: Ecosystem, entry: ManifestEntry) -> tuple[str, str]:
    # a Go module required directly or indirectly is one requirement whose mark changed
    group = "require" if ecosystem == "go" and entry.group == "indirect" else entry.group
    return (group, entry.key or entry.name)


def _pairs(
    ecosystem: Ecosystem, before: ManifestSide, after: ManifestSide
) -> list[tuple[ManifestEntry | None, ManifestEntry | None]]:
    olds: dict[tuple[str, str], list[ManifestEntry]] = defaultdict(list)
    news: dict[tuple[str, str], list[ManifestEntry]] = defaultdict(list)
    for entry in before.entries:
        olds[_pairing_key(ecosystem, entry)].append(entry)
    for entry in after.entries:
        news[_pairing_key(ecosystem, entry)].append(entry)
    pairs: list[tuple[ManifestEntry | None, ManifestEntry | None]] = []
    for key in dict.fromkeys([*olds, *news]):
        old_list, new_list = olds.get(key, []), news.get(key, [])
        pairs.extend(zip(old_list, new_list, strict=False))
        pairs.extend((old, None) for old in old_list[len(new_list) :])
        pairs.extend((None, new) for new in new_list[len(old_list) :])
    return pairs


def _text(entry: ManifestEntry, with_features: bool) -> str:
    """A requirement as one line: the package, then its version requirement as written."""
    parts = [entry.name, entry.spec or (f"({entry.source})" if entry.source else "")]
    if with_features and entry.features:
        parts.append(f"(features: {', '.join(entry.features)})")
    return " ".join(p for p in parts if p)


def _kinds(
    ecosystem: Ecosystem, before: ManifestEntry | None, after: ManifestEntry | None
) -> list[DependencyChangeKind]:
    if before is None:
        return ["added"]
    if after is None:
        return ["removed"]
    kinds = kinds_of(ecosystem, before, after)
    if before.group != after.group and "other" not in kinds:
        kinds.append("other")  # required directly now, or only indirectly
    return kinds


def _change(
    path: str,
    ecosystem: Ecosystem,
    before: ManifestEntry | None,
    after: ManifestEntry | None,
    texts: VersionMentions,
    known: dict[str, list[str]],
) -> DependencyChange | None:
    kinds = _kinds(ecosystem, before, after)
    if not kinds:
        return None
    main = after or before
    assert main is not None
    # features are told only when they are all that changed: beside a version they are noise
    features = before is not None and after is not None and (before.spec, before.source) == (after.spec, after.source)
    admitted: list[str] = []
    excluded: list[str] = []
    considered: list[sv.Version] = []
    if before is not None and after is not None:
        mentioned = mentioned_versions(texts, {main.name}, set())
        own = [v for v in (semantic(str(m)) for m in mentioned if not m.is_prerelease) if v is not None]
        released = [v for v in (semantic(t) for t in known.get(str(canonicalize_name(main.name)), ())) if v]
        considered = sorted({*named_versions(ecosystem, [before.spec, after.spec]), *own, *released})
        admitted, excluded = admission_delta(ecosystem, before, after, considered)
    return DependencyChange(
        path=path,
        package=main.name,
        before=_text(before, features) if before is not None else None,
        after=_text(after, features) if after is not None else None,
        kinds=kinds,
        source_kind=ecosystem,
        versions_considered=[written(ecosystem, main, v) for v in considered],
        newly_admitted=admitted,
        newly_excluded=excluded,
        scope=entry_scope(path, main),
        group=main.group,
    )


def ecosystem_changes(
    change: FileChange, texts: VersionMentions, known: dict[str, list[str]]
) -> tuple[list[DependencyChange], list[DependencyFinding]] | None:
    """The requirement changes and findings of one changed file, or None when it is no
    manifest of these ecosystems."""
    ecosystem = ecosystem_of(change.path)
    if ecosystem is None or change.binary:
        return None
    sides = _sides(change, ecosystem)
    if sides is None:
        finding = DependencyFinding(
            kind="unread-format",
            detail=f"{change.path}: a dependency manifest whose whole text is not in the record, so not read",
            paths=[change.path],
        )
        return [], [finding]
    before, after = sides
    bad = [(name, side.error) for name, side in (("old", before), ("new", after)) if side.error]
    if bad:
        findings = [
            DependencyFinding(
                kind="unparsable",
                detail=f"{change.path}: cannot parse the manifest's {name} text ({error})",
                paths=[change.path],
            )
            for name, error in bad
        ]
        return [], findings
    changes = [
        found
        for old, new in _pairs(ecosystem, before, after)
        if (found := _change(change.path, ecosystem, old, new, texts, known)) is not None
    ]
    return changes, []
