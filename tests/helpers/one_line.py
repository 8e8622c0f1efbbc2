"""Reading an English one-liner in its two parts: the title's intent, then " — " and what the
facts say the change does (`narrate/extractive/intent.py`)."""

from __future__ import annotations

INTENT_SEPARATOR = " — "


def facts_clause(one_line: str) -> str:
    """What the facts say, first letter raised ("Changes `f` in m"); the whole line when it
    has no intent before it."""
    _, separator, clause = one_line.partition(INTENT_SEPARATOR)
    if not separator:
        return one_line
    return clause[:1].upper() + clause[1:]


def intent_part(one_line: str) -> str | None:
    """The title's intent the one-liner leads with, or None."""
    intent, separator, _ = one_line.partition(INTENT_SEPARATOR)
    return intent if separator else None
