"""Where requirements are declared, and what each changed file declares before and after.

Supported sources (``source_kind``):

- ``requirements``: ``requirements*.txt``, ``*-requirements.txt``, ``constraints*.txt``, ``*.txt``/``*.in`` under a
  ``requirements/`` directory (pip syntax, ``-r``/``-c`` references recorded);
- ``pyproject``: PEP 621 ``dependencies`` / ``optional-dependencies``, PEP 735
  ``dependency-groups`` and ``build-system.requires`` (read with tomllib when both contents
  are known, else quoted requirement literals on the patch lines);
- ``setup``: ``setup.py`` string literals of requirement shape, ``setup.cfg``
  ``install_requires`` / ``extras_require``;
- ``dockerfile`` / ``shell`` / ``other``: ``pip install`` / ``uv pip install`` commands in
  Dockerfiles, shell scripts and CI YAML.

Each side (before/after) is read from the file contents when the PR record has both, else
from the patch (context plus removed lines, context plus added lines).
"""

from __future__ import annotations

import configparser
import re
import shlex
import tomllib
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Literal

from prdigest.analyzers.dependencies.requirement_lines import (
    ParsedRequirement,
    Reference,
    Unparsable,
    logical_lines,
    parse_requirement_text,
    parse_requirements_line,
)
from prdigest.analyzers.dependencies.rewrites import rewrites_in_line
from prdigest.analyzers.dependencies.setup_py import setup_py_requirements
from prdigest.analyzers.recent import RecentByIdentity
from prdigest.diff import file_diff
from prdigest.models.pullrequest import FileChange, FileStatus

# "go", "cargo", "npm": the manifests of `ecosystems`, read apart from the Python ones
SourceKind = Literal["requirements", "pyproject", "setup", "dockerfile", "shell", "other", "go", "cargo", "npm"]


@dataclass(frozen=True)
class Entry:
    """One declared requirement on one side of one file."""

    requirement: ParsedRequirement
    # What installs it together with its neighbours: "" for a whole requirements file, the
    # pyproject group, or "install:N" for the N-th pip command of a script.
    group: str = ""
    # setup.py: the build switch that chooses this specifier ("IS_RELEASE", "not IS_RELEASE")
    condition: str | None = None


@dataclass
class DeclaredSide:
    entries: list[Entry] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    unparsable: list[Unparsable] = field(default_factory=list)


@dataclass
class FileDeclarations:
    path: str
    source_kind: SourceKind
    before: DeclaredSide
    after: DeclaredSide
    added_lines: list[str]
    # The lines seen of the file (its newer side, or the older one when removed).
    seen_lines: list[str] = field(default_factory=list)


# requirements.txt, requirements-dev.txt, test-requirements.txt, test_requirements.txt
_REQUIREMENTS_NAME = re.compile(r"(?:^|[-_.])requirements(?:[-_.]|$)")


# The manifests of other ecosystems that are read, for what they require (`ecosystems`).
READ_MANIFESTS = frozenset({"go.mod", "package.json", "Cargo.toml"})
# Dependency manifests of other ecosystems whose declarations are not read (see
# `unread_manifest`): a report says so instead of "no effect on users". The default file
# rules class these names and the read ones as dependency config (a test keeps the lists together).
UNREAD_MANIFESTS = frozenset(
    {
        "Gemfile",
        "composer.json",
        "pom.xml",
        "build.gradle",
        "build.gradle.kts",
        "Package.swift",
        "pubspec.yaml",
        "mix.exs",
    }
)
_UNREAD_LOWER = frozenset(name.lower() for name in UNREAD_MANIFESTS)


def unread_manifest(path: str) -> bool:
    """A dependency manifest whose format this analyzer does not read (``Gemfile``,
    ``pom.xml``, ``*.gemspec`` ...)."""
    name = PurePosixPath(path).name.lower()
    return name in _UNREAD_LOWER or name.endswith(".gemspec")


def source_kind_of(path: str) -> SourceKind | None:
    """The kind of dependency source a path is, or None when it declares none."""
    pure = PurePosixPath(path)
    name = pure.name.lower()
    parents = {part.lower() for part in pure.parts[:-1]}
    if name == "pyproject.toml":
        return "pyproject"
    if name in ("setup.py", "setup.cfg"):
        return "setup"
    if name.endswith((".txt", ".in")) and (
        _REQUIREMENTS_NAME.search(name) or name.startswith("constraints") or parents & {"requirements", "requirement"}
    ):
        return "requirements"
    if name.startswith(("dockerfile", "containerfile")) or name.endswith(".dockerfile"):
        return "dockerfile"
    if name.endswith((".sh", ".bash")):
        return "shell"
    if name.endswith((".yml", ".yaml")) and parents & {".buildkite", ".github", "workflows", ".circleci", "ci"}:
        return "other"
    return None


# --- requirements files ----------------------------------------------------------------


def _requirements_side(lines: list[str]) -> DeclaredSide:
    side = DeclaredSide()
    for line in logical_lines("\n".join(lines)):
        result = parse_requirements_line(line)
        if isinstance(result, ParsedRequirement):
            side.entries.append(Entry(result))
        elif isinstance(result, Reference):
            side.references.append(result)
        elif isinstance(result, Unparsable):
            side.unparsable.append(result)
    return side


# --- string literals (setup.py, pyproject without contents) ------------------------------

_LITERAL = re.compile(r"\"([^\"\\\n]{1,300})\"|'([^'\\\n]{1,300})'")
_TESTED_BEFORE = re.compile(r"(?:startswith|endswith|replace|find|index|count|split|sub|match|search)\(\s*$")
_TESTED_AFTER = re.compile(r"\s*(?:in|not\s+in|==|!=)\b|\s*(?:==|!=)")
_BARE_ITEM = re.compile(r"""^\s*["'][A-Za-z0-9][A-Za-z0-9._-]*["']\s*,?\s*(#.*)?$""")


def _has_requirement_shape(parsed: ParsedRequirement) -> bool:
    req = parsed.requirement
    return bool(req.specifier or req.extras or req.url or req.marker)


def _literal_side(lines: list[str], allow_bare_items: bool) -> DeclaredSide:
    side = DeclaredSide()
    for line in lines:
        if rewrites_in_line(line):
            continue  # a rewrite (str.replace, mapping) is not a declaration
        bare_item = allow_bare_items and _BARE_ITEM.match(line) is not None
        for match in _LITERAL.finditer(line):
            if _TESTED_BEFORE.search(line[: match.start()]) or _TESTED_AFTER.match(line[match.end() :]):
                continue  # 'if "pkg[cu13]" in req', 'req.startswith("pkg")': a test, not a declaration
            literal = match.group(1) or match.group(2) or ""
            parsed = parse_requirement_text(literal)
            if isinstance(parsed, ParsedRequirement) and (_has_requirement_shape(parsed) or bare_item):
                side.entries.append(Entry(parsed))
    return side


# --- pyproject.toml ----------------------------------------------------------------------


def _pyproject_side(content: str) -> DeclaredSide | None:
    try:
        data = tomllib.loads(content)
    except (tomllib.TOMLDecodeError, UnicodeError):
        return None
    groups: list[tuple[str, object]] = []
    project = data.get("project")
    if isinstance(project, dict):
        groups.append(("dependencies", project.get("dependencies")))
        optional = project.get("optional-dependencies")
        if isinstance(optional, dict):
            groups.extend((f"optional:{name}", items) for name, items in optional.items())
    dependency_groups = data.get("dependency-groups")
    if isinstance(dependency_groups, dict):
        groups.extend((f"group:{name}", items) for name, items in dependency_groups.items())
    build = data.get("build-system")
    if isinstance(build, dict):
        groups.append(("build-system", build.get("requires")))
    side = DeclaredSide()
    for group, items in groups:
        if not isinstance(items, list):
            continue
        for item in items:
            if not isinstance(item, str):
                continue  # PEP 735 include-group tables
            parsed = parse_requirement_text(item)
            if isinstance(parsed, ParsedRequirement):
                side.entries.append(Entry(parsed, group=group))
            else:
                side.unparsable.append(parsed)
    return side


# --- setup.cfg ---------------------------------------------------------------------------


def _setup_cfg_side(content: str) -> DeclaredSide | None:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(content)
    except configparser.Error:
        return None
    side = DeclaredSide()
    values: list[tuple[str, str]] = []
    for key in ("install_requires", "setup_requires", "tests_require"):
        if parser.has_option("options", key):
            values.append((key, parser.get("options", key)))
    if parser.has_section("options.extras_require"):
        values.extend((f"optional:{key}", value) for key, value in parser.items("options.extras_require"))
    for group, value in values:
        for line in value.splitlines():
            result = parse_requirements_line(line)
            if isinstance(result, ParsedRequirement):
                side.entries.append(Entry(result, group=group))
            elif isinstance(result, Unparsable):
                side.unparsable.append(result)
    return side


_CFG_KEY = re.compile(r"^\s*[\w.-]+\s*=(?!=)")


def _setup_cfg_lines_side(lines: list[str]) -> DeclaredSide:
    side = DeclaredSide()
    for line in lines:
        if not line[:1].isspace() or _CFG_KEY.match(line):
            continue  # only indented list items of install_requires-like keys
        result = parse_requirements_line(line)
        if isinstance(result, ParsedRequirement):
            side.entries.append(Entry(result))
    return side


# --- pip install commands ----------------------------------------------------------------

_INSTALL = re.compile(r"(?:^|[\s;&|(])(?:uv\s+)?(?:python\d*(?:\.\d+)?\s+-m\s+)?pip3?\s+install\b(?P<args>.*)")
_COMMAND_SPLIT = re.compile(r"&&|\|\||;|\|")
# pip / uv options that take a value, so the value is not read as a requirement.
_VALUE_OPTIONS = {
    "-r",
    "--requirement",
    "-c",
    "--constraint",
    "-e",
    "--editable",
    "-i",
    "--index-url",
    "--extra-index-url",
    "-f",
    "--find-links",
    "--python",
    "-p",
    "--target",
    "-t",
    "--prefix",
    "--root",
    "--no-binary",
    "--only-binary",
    "--platform",
    "--python-version",
    "--torch-backend",
    "--index-strategy",
    "--implementation",
    "--abi",
    "--src",
    "--progress-bar",
    "--cache-dir",
    "--config-settings",
    "-C",
    "--override",
    "--exclude-newer",
    "--group",
    "--extra",
    "--python-platform",
    "--resolution",
    "--prerelease",
    "--keyring-provider",
    "--trusted-host",
}


def _install_commands(lines: list[str]) -> list[str]:
    joined = "\n".join(logical_lines("\n".join(lines)))
    commands: list[str] = []
    for line in joined.splitlines():
        if line.lstrip().startswith("#"):
            continue
        for part in _COMMAND_SPLIT.split(line):
            match = _INSTALL.search(part)
            if match:
                commands.append(match.group("args"))
    return commands


def _install_arguments(args: str) -> list[str]:
    try:
        tokens = shlex.split(args, comments=True)
    except ValueError:
        tokens = args.split()
    found: list[str] = []
    skip_next = False
    for token in tokens:
        if skip_next:
            skip_next = False
            continue
        if token.startswith("-"):
            skip_next = token in _VALUE_OPTIONS
            continue
        if token.startswith((">", "<", "2>")) and not found:
            break
        if "$" in token or "/" in token or token.startswith(".") or token.endswith((".whl", ".txt", ".tar.gz")):
            continue
        found.append(token)
    return found


def _install_side(lines: list[str]) -> DeclaredSide:
    side = DeclaredSide()
    for index, args in enumerate(_install_commands(lines)):
        for token in _install_arguments(args):
            parsed = parse_requirement_text(token)
            if isinstance(parsed, ParsedRequirement):
                side.entries.append(Entry(parsed, group=f"install:{index}"))
    return side


# --- one changed file --------------------------------------------------------------------


def _side(kind: SourceKind, path: str, lines: list[str], content: str | None) -> DeclaredSide:
    if kind == "requirements":
        return _requirements_side(lines)
    if kind == "pyproject":
        parsed = _pyproject_side(content) if content is not None else None
        return parsed if parsed is not None else _literal_side(lines, allow_bare_items=False)
    if kind == "setup":
        if path.endswith(".cfg"):
            parsed = _setup_cfg_side(content) if content is not None else None
            return parsed if parsed is not None else _setup_cfg_lines_side(lines)
        found = setup_py_requirements(content) if content is not None else None
        if found is None:
            return _literal_side(lines, allow_bare_items=True)
        return DeclaredSide(entries=[Entry(r.requirement, group=r.keyword or "", condition=r.condition) for r in found])
    return _install_side(lines)


def declarations(change: FileChange) -> FileDeclarations | None:
    """What a changed file declares before and after, or None when it is no dependency source.
    Read once per file: the files, dependencies and references analyzers each ask (the result
    is shared; no caller changes it)."""
    kind = source_kind_of(change.path)
    if kind is None or change.binary:
        return None
    return _RECENT.get(change, lambda known: _declarations(known, kind))


def _declarations(change: FileChange, kind: SourceKind) -> FileDeclarations:
    view = file_diff(change)
    before_content = "" if change.status == FileStatus.ADDED else change.content_before
    after_content = "" if change.status == FileStatus.REMOVED else change.content_after
    # Mixing a whole-file side with a patch side would pair unequal views: use contents
    # only when both sides are known.
    if before_content is not None and after_content is not None:
        before_lines, after_lines = before_content.splitlines(), after_content.splitlines()
    else:
        before_lines, after_lines = view.old_side(), view.new_side()
        before_content = after_content = None
    return FileDeclarations(
        path=change.path,
        source_kind=kind,
        before=_SIDES.get(kind, change.path, before_lines, before_content),
        after=_SIDES.get(kind, change.path, after_lines, after_content),
        added_lines=view.added() if change.patch else after_lines,
        seen_lines=before_lines if change.status == FileStatus.REMOVED else after_lines,
    )


class _RecentSides:
    """A file's declared side by its whole text (a file's text comes back in PR after PR: the
    old side of one is the new side of another), least recently used out. Sides read from a
    patch's lines are not kept. Shared like `declarations`: no caller changes one."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._sides: OrderedDict[tuple[SourceKind, str, str], DeclaredSide] = OrderedDict()

    def get(self, kind: SourceKind, path: str, lines: list[str], content: str | None) -> DeclaredSide:
        if content is None:
            return _side(kind, path, lines, content)
        key = (kind, path, content)
        found = self._sides.get(key)
        if found is not None:
            self._sides.move_to_end(key)
            return found
        found = self._sides[key] = _side(kind, path, lines, content)
        while len(self._sides) > self.size:
            self._sides.popitem(last=False)
        return found


# Per process, like functools caches (a PR's dependency files are read by three analyzers in turn).
_RECENT: RecentByIdentity[FileChange, FileDeclarations] = RecentByIdentity(16)
_SIDES = _RecentSides(size=256)
