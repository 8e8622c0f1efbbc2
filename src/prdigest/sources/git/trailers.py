"""Commit-message trailers: ``Co-authored-by: Name <email>`` lines."""

from __future__ import annotations

import re

_CO_AUTHOR = re.compile(r"^[ \t]*co-authored-by:[ \t]*(?P<who>\S.*?)[ \t]*$", re.IGNORECASE | re.MULTILINE)


def co_authors(message: str) -> list[str]:
    """Distinct co-authors as written (``Name <email>``), in order of appearance.

    GitHub puts them at the end of squash messages, sometimes after the squashed commit
    list, so every line is considered rather than only the last paragraph.
    """
    seen: dict[str, None] = {}
    for match in _CO_AUTHOR.finditer(message):
        seen.setdefault(match.group("who"), None)
    return list(seen)


def co_author_names(message: str) -> list[str]:
    """Just the names of ``co_authors`` (the part before ``<email>``)."""
    names: list[str] = []
    for who in co_authors(message):
        name = who.split("<", 1)[0].strip()
        if name and name not in names:
            names.append(name)
    return names
