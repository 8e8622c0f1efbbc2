"""A clone's GitHub name: from ``--repo`` or its ``origin`` URL."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from prdigest.errors import ConfigError

# https://host/OWNER/NAME(.git), ssh://git@host[:port]/OWNER/NAME(.git), git@host:OWNER/NAME(.git)
_URL_PATTERNS = (
    re.compile(r"^(?:https?|ssh|git)://[^/]+/(?:.*/)?(?P<owner>[^/]+)/(?P<name>[^/]+?)(?:\.git)?/?$"),
    re.compile(r"^[^@/:]+@[^:/]+:(?:.*/)?(?P<owner>[^/]+)/(?P<name>[^/]+?)(?:\.git)?/?$"),
)
_VALID_PART = re.compile(r"^[A-Za-z0-9_.-]+$")


def repository_from_url(url: str) -> str | None:
    """``OWNER/NAME`` from a GitHub-style remote URL, or None when the URL has no such shape."""
    url = url.strip()
    for pattern in _URL_PATTERNS:
        match = pattern.match(url)
        if match is not None:
            owner, name = match.group("owner"), match.group("name")
            if _VALID_PART.match(owner) and _VALID_PART.match(name):
                return f"{owner}/{name}"
    return None


def validate_repository_name(value: str) -> str:
    owner, sep, name = value.partition("/")
    if not sep or not _VALID_PART.match(owner or "") or not _VALID_PART.match(name or ""):
        raise ConfigError(f"--repo expects OWNER/NAME, got {value!r}")
    return value


def name_from_origin(repo: Path, url: str | None) -> str:
    """The ``OWNER/NAME`` in ``repo``'s ``origin`` URL ``url`` (None: no origin remote); a
    ConfigError when there is none to tell."""
    if not url:
        raise ConfigError(f"cannot tell the repository name of {repo}: it has no origin remote; pass --repo OWNER/NAME")
    name = repository_from_url(url)
    if name is None:
        raise ConfigError(f"cannot tell the repository name from the origin URL of {repo}; pass --repo OWNER/NAME")
    return name


def origin_name(clone: Path) -> str:
    """``OWNER/NAME`` of a local clone from its ``origin`` remote (for scripts that take a bare
    clone path); a ConfigError when it has none to tell."""
    url = subprocess.run(
        ["git", "-C", str(clone), "remote", "get-url", "origin"], capture_output=True, text=True, check=False
    ).stdout.strip()
    return name_from_origin(clone, url or None)
