"""What a qualified symbol name says about who can reach it (outside the `symbols` package:
the report's selection reads it without loading the analyzer)."""

from __future__ import annotations


def has_private_part(name: str, separator: str = ".") -> bool:
    """A part of the name is private (``_helper``, ``_Cache.get``); dunders such as
    ``__init__`` are not."""
    return any(p.startswith("_") and not (p.startswith("__") and p.endswith("__")) for p in name.split(separator) if p)
