"""The manifests of three other ecosystems, read for what they require: ``go.mod``,
``Cargo.toml`` and ``package.json``.

- ``go`` (``go.mod``): ``require`` lines and blocks (``// indirect`` marks a requirement the
  module does not import itself: group ``indirect``), ``replace`` directives (group
  ``replace``: the replaced module is built at the replacement's version, a pin) and the
  ``go`` directive, the language version the module needs, told as a requirement on ``go``
  (group ``go``, scope build). ``toolchain``, ``exclude`` and ``retract`` are not read. A Go
  requirement is a minimum: minimal version selection builds the highest minimum any module
  in the build asks for, so ``v1.36.8`` admits v1.36.8 and every later release.
- ``cargo`` (``Cargo.toml``, read with tomllib): ``[dependencies]``, ``[dev-dependencies]``,
  ``[build-dependencies]``, ``[workspace.dependencies]`` and each
  ``[target.'cfg(...)'.*dependencies]``; a version is a string or a table's ``version``, and
  means what Cargo makes of it: ``"1.2.3"`` is ``^1.2.3``, ``"=1.2.3"`` a pin, ``"~1.2"`` a
  minor series (read by `semantic_version.SimpleSpec`). ``workspace = true``, ``path`` and
  ``git`` entries without a version have no version of their own. The ``package`` key of a
  renamed dependency names the crate.
- ``npm`` (``package.json``, read with json): ``dependencies``, ``devDependencies``,
  ``peerDependencies`` and ``optionalDependencies``; ranges as npm reads them (``^``, ``~``,
  x-ranges, ``||``, hyphen ranges; `semantic_version.NpmSpec`). A tag, URL, path or alias
  (``latest``, ``github:o/r``, ``file:..``, ``npm:x@1``) is no range: a change to one is
  told as changed, never as admitting anything.

Both sides are read from the whole texts of the file; without them a ``go.mod`` is read from
the diff's lines (its format is one requirement a line) and the other two are not read at all.
A side that does not parse is said to be unparsable, and nothing is claimed of that file.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, Literal

import semantic_version as sv

from prdigest.analyzers.dependencies.change_kinds import Bound, SpecShape, shape_kinds
from prdigest.analyzers.dependencies.scopes import manifest_scope
from prdigest.models.facts import DependencyChangeKind, DependencyScope

Ecosystem = Literal["go", "cargo", "npm"]

# The manifests read here, by file name; their lock files (go.sum, Cargo.lock,
# package-lock.json, yarn.lock) are generated and stay unread.
ECOSYSTEM_MANIFESTS: dict[str, Ecosystem] = {"go.mod": "go", "cargo.toml": "cargo", "package.json": "npm"}


def ecosystem_of(path: str) -> Ecosystem | None:
    return ECOSYSTEM_MANIFESTS.get(PurePosixPath(path).name.lower())


@dataclass(frozen=True)
class ManifestEntry:
    """One requirement of one side of a manifest."""

    name: str  # the module, crate or package required
    spec: str  # its version requirement as written ("" when it has none of its own)
    group: str  # the table or directive it sits in: "require", "indirect", "dev-dependencies", ...
    scope: DependencyScope
    key: str = ""  # what it pairs by within its group (a renamed crate's key), else the name
    source: str = ""  # where it comes from without a version: "workspace", "path", "git", "=> ../x"
    features: tuple[str, ...] = ()  # Cargo features asked for ("no-default" first when so)

    @property
    def pairing(self) -> tuple[str, str]:
        return (self.group, self.key or self.name)


@dataclass
class ManifestSide:
    entries: list[ManifestEntry] = field(default_factory=list)
    error: str | None = None  # why the side could not be read (a TOML or JSON error)


# --- go.mod --------------------------------------------------------------------------------

_GO_LINE = re.compile(r"^(?P<module>[^\s()\"]+)\s+(?P<version>v\d[^\s]*)$")
_GO_REPLACE = re.compile(r"^(?P<old>[^\s=]+)(?:\s+(?P<oldv>v\S+))?\s*=>\s*(?P<new>\S+)(?:\s+(?P<newv>v\S+))?$")
_GO_DIRECTIVE = re.compile(
    r"^(?P<verb>require|replace|exclude|retract|go|toolchain|module|godebug|tool|ignore)\b\s*(?P<rest>.*)$"
)


def _go_comment(line: str) -> tuple[str, str]:
    text, _, comment = line.partition("//")
    return text.strip(), comment.strip()


def _go_entry(verb: str, text: str, comment: str) -> ManifestEntry | None:
    if verb == "require":
        match = _GO_LINE.match(text)
        if match is None:
            return None
        indirect = comment.split(";")[0].strip() == "indirect"
        return ManifestEntry(match["module"], match["version"], "indirect" if indirect else "require", "runtime")
    if verb == "replace":
        match = _GO_REPLACE.match(text)
        if match is None:
            return None
        source = f"=> {match['new']}" if match["new"] != match["old"] else ""
        if match["newv"] is None:  # a local directory: no version of its own
            return ManifestEntry(match["old"], "", "replace", "runtime", source=source)
        return ManifestEntry(match["old"], f"={match['newv']}", "replace", "runtime", source=source)
    if verb == "go":
        version = text.split()[0] if text else ""
        return ManifestEntry("go", version, "go", "build") if version else None
    return None


def read_go_mod(text: str, *, fragments: bool = False) -> ManifestSide:
    """The requirements of a go.mod text. With ``fragments`` (lines of a diff, whose block
    headers may lie outside the hunks) a bare ``module version`` line is read as required."""
    side = ManifestSide()
    block: str | None = None
    for raw in text.splitlines():
        line, comment = _go_comment(raw)
        if not line:
            continue
        if block is not None:
            if line == ")":
                block = None
                continue
            entry = _go_entry(block, line, comment)
        else:
            directive = _GO_DIRECTIVE.match(line)
            if directive is None:
                entry = _go_entry("require", line, comment) if fragments else None
            elif directive["rest"] == "(":
                block = directive["verb"]
                continue
            else:
                entry = _go_entry(directive["verb"], directive["rest"], comment)
        if entry is not None:
            side.entries.append(entry)
    return side


# --- Cargo.toml ----------------------------------------------------------------------------

_CARGO_TABLES: dict[str, DependencyScope] = {
    "dependencies": "runtime",
    "dev-dependencies": "dev",
    "build-dependencies": "build",
}


def _cargo_entry(key: str, value: object, group: str, scope: DependencyScope) -> ManifestEntry | None:
    if isinstance(value, str):
        return ManifestEntry(key, value.strip(), group, scope, key=key)
    if not isinstance(value, dict):
        return None
    name = value.get("package") if isinstance(value.get("package"), str) else key
    version = value.get("version")
    spec = version.strip() if isinstance(version, str) else ""
    source = ""
    if not spec:
        source = next((s for s in ("workspace", "path", "git", "registry") if s in value), "")
    listed = value.get("features")
    features = sorted(f for f in listed if isinstance(f, str)) if isinstance(listed, list) else []
    if value.get("default-features", value.get("default_features", True)) is False:
        features.insert(0, "no-default")
    if value.get("optional") is True and scope == "runtime":
        scope = "optional"
    return ManifestEntry(str(name), spec, group, scope, key=key, source=source, features=tuple(features))


def _cargo_tables(data: dict[str, Any]) -> Iterator[tuple[str, DependencyScope, dict[str, Any]]]:
    for table, scope in _CARGO_TABLES.items():
        found = data.get(table)
        if isinstance(found, dict):
            yield table, scope, found
    workspace = data.get("workspace")
    if isinstance(workspace, dict) and isinstance(workspace.get("dependencies"), dict):
        yield "workspace.dependencies", "runtime", workspace["dependencies"]
    targets = data.get("target")
    if isinstance(targets, dict):
        for target, tables in targets.items():
            if not isinstance(tables, dict):
                continue
            for table, scope in _CARGO_TABLES.items():
                found = tables.get(table)
                if isinstance(found, dict):
                    yield f"target.{target}.{table}", scope, found


def read_cargo_toml(text: str) -> ManifestSide:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return ManifestSide(error=f"not valid TOML: {error}")
    side = ManifestSide()
    for group, scope, table in _cargo_tables(data):
        for key, value in table.items():
            entry = _cargo_entry(key, value, group, scope)
            if entry is not None:
                side.entries.append(entry)
    return side


# --- package.json --------------------------------------------------------------------------

_NPM_TABLES: dict[str, DependencyScope] = {
    "dependencies": "runtime",
    "devDependencies": "dev",
    "peerDependencies": "runtime",
    "optionalDependencies": "optional",
}


def read_package_json(text: str) -> ManifestSide:
    if not text.strip():
        return ManifestSide()
    try:
        data = json.loads(text)
    except ValueError as error:
        return ManifestSide(error=f"not valid JSON: {error}")
    if not isinstance(data, dict):
        return ManifestSide(error="not a JSON object")
    side = ManifestSide()
    for group, scope in _NPM_TABLES.items():
        table = data.get(group)
        if not isinstance(table, dict):
            continue
        for name, value in table.items():
            if isinstance(value, str):
                side.entries.append(ManifestEntry(name, value.strip(), group, scope))
    return side


def read_manifest(ecosystem: Ecosystem, text: str, *, fragments: bool = False) -> ManifestSide:
    if ecosystem == "go":
        return read_go_mod(text, fragments=fragments)
    if ecosystem == "cargo":
        return read_cargo_toml(text)
    return read_package_json(text)


# --- what a requirement admits -------------------------------------------------------------

Ranges = tuple[tuple[tuple[str, sv.Version], ...], ...]  # alternatives, each all of (operator, version)


@dataclass(frozen=True)
class Admission:
    """What one requirement admits: its ranges (for its shape) and a test for one version."""

    ranges: Ranges
    admits: Callable[[sv.Version], bool]


_GO_VERSION = re.compile(r"^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(.*)$")
_SEMVER_TOKEN = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z.-]+)?)(?![\w.])")


def semantic(text: str) -> sv.Version | None:
    """A version as written by any of the three ecosystems (``v1.2.3``, ``1.2``, ``go1.22``)."""
    match = _GO_VERSION.match(text.removeprefix("go"))
    if match is None:
        return None
    major, minor, patch, rest = match.groups()
    full = f"{major}.{minor or 0}.{patch or 0}{rest}"
    try:
        return sv.Version(full)
    except ValueError:
        try:
            return sv.Version.coerce(full)
        except ValueError:
            return None


def _clause_ranges(clause: object) -> Ranges | None:
    if isinstance(clause, sv.base.Range):
        return (((clause.operator, clause.target),),)
    if isinstance(clause, sv.base.AllOf):
        parts: list[Ranges] = []
        for part in clause.clauses:
            found = _clause_ranges(part)
            if found is None or len(found) != 1:
                return None
            parts.append(found)
        return (tuple(sorted((r for p in parts for r in p[0]), key=lambda r: (r[0], str(r[1])))),)
    if isinstance(clause, sv.base.AnyOf):
        alternatives: list[tuple[tuple[str, sv.Version], ...]] = []
        for part in clause.clauses:
            found = _clause_ranges(part)
            if found is None:
                return None
            alternatives.extend(found)
        return tuple(sorted(alternatives, key=str))
    return None


_CARGO_PART = re.compile(r"^(?P<op>\^|~|=|==|>=|<=|>|<)?\s*(?P<version>[0-9*][0-9A-Za-z.*+-]*)$")


def _cargo_spec(spec: str) -> sv.SimpleSpec | None:
    """Cargo's requirement as `SimpleSpec` writes it: a bare version is a caret one, ``=`` a pin."""
    parts: list[str] = []
    for part in spec.split(","):
        match = _CARGO_PART.match(part.strip())
        if match is None:
            return None
        operator, version = match["op"] or "^", match["version"]
        if version.replace(".", "").strip("*") == "":
            parts.append("*")
            continue
        parts.append(("==" if operator == "=" else operator) + version)
    try:
        return sv.SimpleSpec(",".join(parts))
    except ValueError:
        return None


def admission(ecosystem: Ecosystem, entry: ManifestEntry) -> Admission | None:
    """What the requirement admits by its ecosystem's rules, or None when it names no range."""
    if not entry.spec:
        return None
    if ecosystem == "go":
        version = semantic(entry.spec.removeprefix("="))
        if version is None:
            return None
        if entry.spec.startswith("="):  # a replacement: that version and no other
            return Admission(((("==", version),),), lambda v: v == version)
        return Admission((((">=", version),),), lambda v: v >= version)
    spec: sv.BaseSpec | None
    if ecosystem == "cargo":
        spec = _cargo_spec(entry.spec)
    else:
        try:
            spec = sv.NpmSpec(entry.spec)
        except ValueError:
            spec = None
    if spec is None:
        return None
    ranges = _clause_ranges(spec.clause)
    if ranges is None:
        return None
    return Admission(ranges, spec.match)


def _one_shape(ranges: tuple[tuple[str, sv.Version], ...]) -> SpecShape:
    pins = [v for op, v in ranges if op == "=="]
    floors: list[Bound] = [(v, op == ">=") for op, v in ranges if op in (">=", ">")]
    caps: list[Bound] = [(v, op == "<=") for op, v in ranges if op in ("<", "<=")]
    floor = max(floors, key=lambda b: (b[0], not b[1])) if floors else None
    if floor is not None and floor == (sv.Version("0.0.0"), True):
        floor = None  # "*": no lower bound at all
    cap = min(caps, key=lambda b: (b[0], b[1])) if caps else None
    pin = ",".join(sorted(str(p) for p in pins)) or None
    exclusions = frozenset(str(v) for op, v in ranges if op == "!=")
    return SpecShape(pin=pin, cap=cap, floor=floor, exclusions=exclusions, pinned=pins[0] if len(pins) == 1 else None)


def shape(found: Admission | None) -> SpecShape:
    """The requirement's pin, floor and cap; of several alternatives (``^1 || ^2``), the lowest
    floor and the highest cap: the span they cover together."""
    if found is None or not found.ranges:
        return SpecShape(pin=None, cap=None, floor=None, exclusions=frozenset())
    shapes = [_one_shape(r) for r in found.ranges]
    if len(shapes) == 1:
        return shapes[0]
    floors = [s.floor if s.pinned is None else (s.pinned, True) for s in shapes]
    caps = [s.cap if s.pinned is None else (s.pinned, True) for s in shapes]
    floor = None if any(f is None for f in floors) else min((f for f in floors if f), key=lambda b: (b[0], not b[1]))
    cap = None if any(c is None for c in caps) else max((c for c in caps if c), key=lambda b: (b[0], b[1]))
    return SpecShape(pin=None, cap=cap, floor=floor, exclusions=frozenset())


def kinds_of(ecosystem: Ecosystem, before: ManifestEntry, after: ManifestEntry) -> list[DependencyChangeKind]:
    """The kinds of change between two requirements of one package (empty when alike)."""
    old, new = admission(ecosystem, before), admission(ecosystem, after)
    kinds: list[DependencyChangeKind] = []
    if before.features != after.features:
        kinds.append("extras-changed")  # Cargo features are what extras are to pip
    if old is not None and new is not None:
        kinds.extend(shape_kinds(shape(old), shape(new)))
    if not [k for k in kinds if k != "extras-changed"] and (before.spec, before.source) != (after.spec, after.source):
        if old is None and new is not None and before.spec == "":
            kinds.append("pinned" if shape(new).pinned is not None else "floor-raised" if shape(new).floor else "other")
        elif new is None and old is not None and after.spec == "":
            kinds.append("unpinned" if shape(old).pinned is not None else "other")
        elif old is None or new is None or before.spec != after.spec:
            kinds.append("other")
    return kinds


def named_versions(ecosystem: Ecosystem, specs: Iterable[str]) -> list[sv.Version]:
    """The versions the requirements write (``1.36.6`` of ``v1.36.6``, ``0.11.0`` of ``0.11``)."""
    found: set[sv.Version] = set()
    for spec in specs:
        for match in _SEMVER_TOKEN.finditer(spec):
            if (version := semantic(match.group(1))) is not None:
                found.add(version)
    return sorted(found)


def written(ecosystem: Ecosystem, entry: ManifestEntry, version: sv.Version) -> str:
    """A version as its ecosystem writes it: a Go module's with a leading ``v`` (not the language's)."""
    return f"v{version}" if ecosystem == "go" and entry.group != "go" else str(version)


def admission_delta(
    ecosystem: Ecosystem, before: ManifestEntry, after: ManifestEntry, versions: Iterable[sv.Version]
) -> tuple[list[str], list[str]]:
    """(newly admitted, newly excluded) among ``versions``; nothing when either side names no range."""
    old, new = admission(ecosystem, before), admission(ecosystem, after)
    if old is None or new is None:
        return [], []
    admitted: list[str] = []
    excluded: list[str] = []
    for version in versions:
        was, now = old.admits(version), new.admits(version)
        if now and not was:
            admitted.append(written(ecosystem, after, version))
        elif was and not now:
            excluded.append(written(ecosystem, after, version))
    return admitted, excluded


def entry_scope(path: str, entry: ManifestEntry) -> DependencyScope:
    return manifest_scope(path, entry.scope)
