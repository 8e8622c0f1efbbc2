"""Path globs of a watch (``--path``): ``*`` and ``?`` stay within one path segment, ``**``
spans segments, ``[abc]`` is a class; a pattern without any of these names a file or a folder
(everything below it). Paths are repository-relative with ``/`` separators."""

from __future__ import annotations

import re
from functools import lru_cache

from prdigest.errors import ConfigError

_GLOB_CHARS = frozenset("*?[")


def check_glob(pattern: str) -> str:
    """The pattern, normalized; ConfigError says what is wrong with a bad one."""
    stripped = pattern.strip()
    if not stripped:
        raise ConfigError("--path expects a glob like src/sched/** or *.py, got an empty one")
    if stripped.startswith("/"):
        raise ConfigError(f"--path globs are relative to the repository root: {pattern!r} starts with /")
    if any(part == ".." for part in stripped.split("/")):
        raise ConfigError(f"--path globs cannot leave the repository: {pattern!r} has ..")
    _compile(stripped)
    return stripped


def matches(pattern: str, path: str) -> bool:
    return _compile(pattern).fullmatch(path) is not None


@lru_cache(maxsize=256)
def _compile(pattern: str) -> re.Pattern[str]:
    if not _GLOB_CHARS & set(pattern):
        folder = re.escape(pattern.rstrip("/"))
        return re.compile(f"{folder}(?:/.*)?")
    out: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**", index):
            index += 2
            if pattern.startswith("/", index):  # "a/**/b" also matches "a/b"
                index += 1
                out.append("(?:.*/)?")
            else:
                out.append(".*")
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = pattern.find("]", index + 2 if pattern.startswith(("[!", "[^"), index) else index + 1)
            if end < 0:
                raise ConfigError(f"--path glob {pattern!r} opens a [class] it never closes")
            body = pattern[index + 1 : end]
            negated = body[:1] in ("!", "^")
            body = body[1:] if negated else body
            if not body:
                raise ConfigError(f"--path glob {pattern!r} has an empty [class]")
            escaped = "".join(re.escape(c) if c != "-" else "-" for c in body)
            out.append(f"[{'^/' if negated else ''}{escaped}]")
            index = end
        else:
            out.append(re.escape(char))
        index += 1
    return re.compile("".join(out))
