"""Released versions per package, for `AnalysisContext.known_versions`.

Two optional sources, never required: a JSON file ``{"pkg": ["1.0", "1.1"], ...}`` and a
PyPI-style JSON API (``GET {base_url}/{pkg}/json`` answering ``{"releases": {"1.0": [...]}}``).
Names are canonicalized; invalid versions are dropped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import httpx
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from prdigest.errors import ConfigError, SourceError


def _valid_versions(values: Iterable[object]) -> list[str]:
    versions: list[Version] = []
    for value in values:
        try:
            versions.append(Version(str(value)))
        except InvalidVersion:
            continue
    return [str(v) for v in sorted(set(versions))]


def load_known_versions_file(path: Path) -> dict[str, list[str]]:
    """Read ``{"pkg": ["1.0", ...]}``; ConfigError names the file and the problem."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read known-versions file: {exc.strerror or exc}") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: known-versions file is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: known-versions file must be an object of package -> list of versions")
    result: dict[str, list[str]] = {}
    for name, versions in data.items():
        if not isinstance(versions, list):
            raise ConfigError(f"{path}: versions of {name!r} must be a list of strings")
        result[canonicalize_name(str(name))] = _valid_versions(versions)
    return result


def _display(url: str) -> str:
    """The index URL without credentials or query, for messages."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError):
        return "<invalid URL>"
    return str(parsed.copy_with(username=None, password=None, query=None, fragment=None))


def fetch_known_versions(
    base_url: str,
    packages: Iterable[str],
    client: httpx.Client | None = None,
    timeout: float = 10.0,
) -> dict[str, list[str]]:
    """Ask a PyPI-style JSON API for each package's releases; unknown packages are skipped."""
    own_client = client is None
    http = client or httpx.Client(timeout=timeout, follow_redirects=True)
    root = base_url.rstrip("/")
    shown = _display(root)
    result: dict[str, list[str]] = {}
    try:
        for package in sorted({canonicalize_name(p) for p in packages}):
            try:
                response = http.get(f"{root}/{package}/json")
            except httpx.HTTPError as exc:
                raise SourceError(f"package index {shown}: request for {package} failed: {type(exc).__name__}") from exc
            if response.status_code == 404:
                continue
            if response.status_code != 200:
                raise SourceError(f"package index {shown}: {package} answered HTTP {response.status_code}")
            try:
                releases = response.json().get("releases")
            except (ValueError, AttributeError) as exc:
                raise SourceError(f"package index {shown}: {package} answered no JSON object") from exc
            if not isinstance(releases, dict):
                raise SourceError(f"package index {shown}: {package} answer has no 'releases' object")
            result[package] = _valid_versions(releases)
    finally:
        if own_client:
            http.close()
    return result
