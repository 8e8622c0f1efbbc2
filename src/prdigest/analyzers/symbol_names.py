"""What a qualified symbol name says about who can reach it (outside the `symbols` package:
the report's selection reads it without loading the analyzer).

Python says it by convention (a ``_`` prefix), Go by case (an exported name begins with an
upper-case letter). Rust, JavaScript and TypeScript say it with a keyword (``pub``,
``export``, or CommonJS's ``module.exports``), which the symbol facts carry as ``exported``;
C and C++ (``static``, headers) say it in ways not read, so there, as wherever the mark is
missing, no name is called public.
"""

from __future__ import annotations

from functools import lru_cache

# Languages whose names alone tell whether a definition is reachable from outside.
NAMED_VISIBILITY = frozenset({"python", "go"})


def has_private_part(name: str, separator: str = ".") -> bool:
    """A part of the name is private (``_helper``, ``_Cache.get``); dunders such as
    ``__init__`` are not."""
    return any(p.startswith("_") and not (p.startswith("__") and p.endswith("__")) for p in name.split(separator) if p)


# The module names Rust gives its in-file unit tests (``#[cfg(test)] mod tests { … }``).
RUST_TEST_MODULES = frozenset({"tests", "test"})


def in_test_module(name: str, language: str | None) -> bool:
    """A definition inside a source file's own test module: Rust keeps unit tests beside the
    code (``mod tests``), so a change there is a test change, not the code's."""
    return language == "rust" and any(p in RUST_TEST_MODULES for p in name.split("::")[:-1])


def _go_unexported(parts: list[str]) -> bool:
    """A Go name is exported when it begins with an upper-case letter; a method of an
    unexported type is as unreachable by name as the type."""
    return any(not p[:1].isupper() for p in parts)


@lru_cache(maxsize=4096)  # asked for every symbol, by every length's selection and narration
def is_private(name: str, language: str | None = None) -> bool:
    """``_helper``, a function nested in a function (``outer.inner``), or in Go a name that
    is not exported (``setField``, ``binding.Bind``): not the PR's surface."""
    separator = "::" if "::" in name else "."
    parts = [p for p in name.split(separator) if p]
    if not parts:
        return False
    if language == "go":
        return _go_unexported(parts)
    if has_private_part(name, separator):
        return True
    # `outer.inner` where outer is a function (lower case) is a local helper; `Class.method` is not.
    return separator == "." and len(parts) > 1 and parts[-2][:1].islower()


def is_public(name: str, kind: str, language: str | None, exported: bool | None = None) -> bool:
    """Whether a symbol named so can be reached from outside its module: marked so by its
    language's keyword (``exported``), or, in a language whose names tell it
    (`NAMED_VISIBILITY`), no private part and no function nested in a function
    (``Class.run.step``: a dotted name that is a function, not a method, sits in a function,
    whatever its parent's case)."""
    if language not in NAMED_VISIBILITY:
        return bool(exported) and not has_private_part(name, "::" if "::" in name else ".")
    if is_private(name, language):
        return False
    return language == "go" or not (kind == "function" and "::" not in name and "." in name)
