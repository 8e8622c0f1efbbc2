"""Who installs a declared requirement: the scope of a dependency change.

Read from where it is declared, never guessed from the package: a pyproject/setup.cfg/setup.py
group says it outright (``dependencies`` / ``install_requires`` run time, an extra optional,
``build-system`` / ``setup_requires`` build, ``tests_require`` / a dev-named extra or a PEP 735
group development); a requirements file, image or script only by its path (``requirements-dev.txt``,
``docs/requirements.txt``, ``.github/workflows/*.yml``). A plain ``requirements.txt`` says nothing
about who installs it (``unknown``) unless the PR's own files do: a pyproject.toml of the PR
that reads it as its ``dependencies`` or an extra (``[tool.setuptools.dynamic]``), or the file
itself installing the project from its checkout in editable mode (``-e .``: a working copy for
development, which users of the package never install).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from pathlib import PurePosixPath

from prdigest.analyzers.dependencies.sources import SourceKind
from prdigest.models.facts import DependencyScope

# a name part that marks a development/test/docs list: requirements-dev.txt, docs/requirements.txt,
# extras "test", "lint", "typing"
_DEV_WORD = re.compile(
    r"(?:^|[-_./])(?:dev|develop|development|tests?|testing|lint|linting|docs?|documentation|"
    r"format|formatting|style|quality|typing|types|mypy|coverage|bench|benchmarks?|examples?)(?:$|[-_./])",
    re.I,
)
_CI_WORD = re.compile(
    r"(?:^|[-_./])(?:ci|\.github|\.buildkite|\.circleci|\.gitlab|workflows|\.?travis|appveyor|github-actions)(?:$|[-_./])",
    re.I,
)
_BUILD_WORD = re.compile(r"(?:^|[-_./])build(?:$|[-_./])", re.I)


def _path_scope(path: str) -> DependencyScope | None:
    pure = PurePosixPath(path.lower())
    text = "/".join(pure.parts)
    if _CI_WORD.search(text):
        return "ci"
    if _DEV_WORD.search(text):
        return "dev"
    if _BUILD_WORD.search(pure.name):
        return "build"
    return None


def _group_scope(group: str) -> DependencyScope:
    if group in ("dependencies", "install_requires"):
        return "runtime"
    if group in ("build-system", "setup_requires"):
        return "build"
    if group == "tests_require":
        return "dev"
    if group.startswith("group:"):
        return "dev"  # PEP 735 groups are never installed with the package
    if group.startswith(("optional:", "extra:")):
        name = group.split(":", 1)[1]
        return "dev" if _DEV_WORD.search(name) or _CI_WORD.search(name) else "optional"
    return "unknown"


def scope_of(kind: SourceKind, path: str, group: str) -> DependencyScope:
    """The scope of a requirement declared in ``path`` (a file of ``kind``) under ``group``."""
    if kind in ("pyproject", "setup"):
        return manifest_scope(path, _group_scope(group))
    by_path = _path_scope(path)
    if kind == "other":
        return "ci"  # pip installs in CI configuration (workflow YAML)
    if kind == "requirements":
        return by_path or "unknown"
    if kind == "dockerfile":
        # an image installs it; a test/dev/CI image is not what users run
        return by_path if by_path in ("dev", "ci") else "runtime"
    return by_path or "unknown"  # shell scripts: only their place says who runs them


def manifest_scope(path: str, declared: DependencyScope) -> DependencyScope:
    """The scope of a requirement that a manifest's table declares (``dev-dependencies``: dev),
    unless the manifest sits under tests/, docs/ or examples/ (a fixture or a sample) or a CI
    folder: then nobody but the project's developers or CI installs it."""
    folder = _path_scope(str(PurePosixPath(path).parent)) if "/" in path else None
    return folder if folder in ("dev", "ci") else declared


# "-e .", "--editable=.[dev,test]", "-e file:." : the project itself, editable, from its checkout.
_EDITABLE_SELF = re.compile(r"^\s*(?:-e|--editable)(?:\s+|=)(?:file:)?\.(?:/)?(?:\[[^\]]*\])?\s*(?:#.*)?$")


def installs_own_checkout(lines: Iterable[str]) -> bool:
    """Whether a requirements file installs the project it sits in, editable (``-e .``)."""
    return any(_EDITABLE_SELF.match(line) for line in lines)


def dynamic_file_scopes(path: str, content: str) -> dict[str, DependencyScope]:
    """Requirements files a pyproject.toml reads as its dependencies or extras
    (``[tool.setuptools.dynamic] dependencies = {file = ["requirements.txt"]}``), by their
    path in the repository, with the scope of what reads them."""
    try:
        data = tomllib.loads(content)
    except (tomllib.TOMLDecodeError, ValueError):
        return {}
    tool = data.get("tool")
    setuptools = tool.get("setuptools") if isinstance(tool, dict) else None
    dynamic = setuptools.get("dynamic") if isinstance(setuptools, dict) else None
    if not isinstance(dynamic, dict):
        return {}
    folder = PurePosixPath(path).parent
    found: dict[str, DependencyScope] = {}

    def add(entry: object, scope: DependencyScope) -> None:
        files = entry.get("file") if isinstance(entry, dict) else None
        for name in [files] if isinstance(files, str) else files if isinstance(files, list) else []:
            if isinstance(name, str):
                found[str(folder / name).removeprefix("./")] = scope

    add(dynamic.get("dependencies"), "runtime")
    extras = dynamic.get("optional-dependencies")
    if isinstance(extras, dict):
        for extra, entry in extras.items():
            add(entry, _group_scope(f"optional:{extra}"))
    return found
