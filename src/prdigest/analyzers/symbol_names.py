"""What a qualified symbol name says about who can reach it (outside the `symbols` package:
the report's selection reads it without loading the analyzer)."""

from __future__ import annotations

from functools import lru_cache


def has_private_part(name: str, separator: str = ".") -> bool:
    """A part of the name is private (``_helper``, ``_Cache.get``); dunders such as
    ``__init__`` are not."""
    return any(p.startswith("_") and not (p.startswith("__") and p.endswith("__")) for p in name.split(separator) if p)


@lru_cache(maxsize=4096)  # asked for every symbol, by every length's selection and narration
def is_private(name: str) -> bool:
    """``_helper`` or a function nested in a function (``outer.inner``): not the PR's surface."""
    separator = "::" if "::" in name else "."
    parts = [p for p in name.split(separator) if p]
    if not parts:
        return False
    if has_private_part(name, separator):
        return True
    # `outer.inner` where outer is a function (lower case) is a local helper; `Class.method` is not.
    return separator == "." and len(parts) > 1 and parts[-2][:1].islower()


def is_public(name: str, kind: str) -> bool:
    """Whether a symbol named so can be reached from outside its module: no private part, and
    no function nested in a function (``Class.run.step``: a dotted name that is a function,
    not a method, sits in a function, whatever its parent's case)."""
    return not is_private(name) and not (kind == "function" and "::" not in name and "." in name)
