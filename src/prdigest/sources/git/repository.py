"""What a clone says about itself: its GitHub name (from ``origin``) and its default branch."""

from __future__ import annotations

import re
from pathlib import Path

from prdigest.errors import ConfigError, NoPullRequestsFound
from prdigest.sources.git.runner import try_git_text

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


def repository_name(repo: Path, given: str | None) -> str:
    """The ``--repo`` value, else the name in the ``origin`` URL; a ConfigError if neither."""
    if given is not None:
        return validate_repository_name(given)
    url = try_git_text(repo, ["config", "--get", "remote.origin.url"])
    if not url:
        raise ConfigError(f"cannot tell the repository name of {repo}: it has no origin remote; pass --repo OWNER/NAME")
    name = repository_from_url(url)
    if name is None:
        raise ConfigError(f"cannot tell the repository name from the origin URL of {repo}; pass --repo OWNER/NAME")
    return name


def default_branch(repo: Path, given: str | None) -> tuple[str, str]:
    """The ref to read (``--branch``, else origin/HEAD, else the current HEAD branch) and
    the commit it names, found in one git call per candidate."""
    candidates = [given] if given else []
    if not given:
        origin_head = try_git_text(repo, ["symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"])
        if origin_head:
            candidates.append(origin_head)
        candidates.append("HEAD")
    for ref in candidates:
        sha = resolve_commit(repo, ref)
        if sha:
            return ref, sha
    if given:
        raise ConfigError(f"--branch {given!r} is not a branch or commit of {repo}")
    raise NoPullRequestsFound(f"{repo} has no commits yet, so no pull requests to read")


def resolve_commit(repo: Path, ref: str) -> str | None:
    return try_git_text(repo, ["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"]) or None
