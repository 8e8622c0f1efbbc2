"""Whether a changed regular expression now matches more strings or fewer, decided by what the
two patterns match, never by their length: dropping ``>=`` from ``^pkg\\[cu13\\]>=`` widens
what it matches although the pattern got shorter.

Each pattern is sampled (strings generated from it by `rstr`, with a fixed seed) and every
sample of one is searched with the other: the old pattern's samples all found by the new one,
and some of the new one's not by the old, is ``widened``; the other way round ``narrowed``;
anything else (both, neither, a pattern that does not compile or cannot be sampled) is
``changed``. Samples show inclusion, they do not prove it: a direction is claimed only when
every sample agrees. Patterns are read with Python's syntax (sed and grep patterns too: both
sides alike, which is what the comparison needs).
"""

from __future__ import annotations

import random
import re
from typing import Literal

import rstr

Direction = Literal["widened", "narrowed", "changed"]
SAMPLES = 40
_MAX_PATTERN = 400  # longer patterns are not sampled: told as changed


def regex_direction(before: str, after: str) -> Direction:
    old, new = _compiled(before), _compiled(after)
    if old is None or new is None or before == after:
        return "changed"
    old_samples, new_samples = _samples(old), _samples(new)
    if not old_samples or not new_samples:
        return "changed"
    old_kept = all(new.search(text) for text in old_samples)
    new_kept = all(old.search(text) for text in new_samples)
    if old_kept and not new_kept:
        return "widened"
    if new_kept and not old_kept:
        return "narrowed"
    return "changed"


def _compiled(pattern: str) -> re.Pattern[str] | None:
    if len(pattern) > _MAX_PATTERN:
        return None
    try:
        return re.compile(pattern)
    except (re.error, RecursionError, OverflowError):
        return None


def _samples(pattern: re.Pattern[str]) -> list[str]:
    """Strings `pattern` matches: generated from it, and kept only where it finds itself in
    them (the generator ignores lookarounds and back-references)."""
    generator = rstr.Rstr(random.Random(0))
    found: list[str] = []
    for _ in range(SAMPLES):
        try:
            text = generator.xeger(pattern.pattern)
        except Exception:  # the generator's own limits (an unsupported construct): no samples
            return []
        if pattern.search(text):
            found.append(text)
    return found
