"""Whether a source change touched any line of code, as the verdict measured it from the
syntax trees: only the text of messages, or only comments, docstrings and formatting."""

from __future__ import annotations

from prdigest.models.facts import Facts


def only_messages(facts: Facts) -> bool:
    """Source changed, but its code only in the text of messages (what the verdict measured)."""
    codes = {r.code for r in facts.verdict.reasons}
    return "core-change" not in codes and "messages-only" in codes


def only_comments(facts: Facts) -> bool:
    """Source changed, but no line of it that is code: only comments, docstrings or formatting."""
    codes = {r.code for r in facts.verdict.reasons}
    return (
        "core-change" not in codes
        and bool(codes & {"comment-only", "no-core"})
        and any(f.category == "source" and f.type == "core-logic" for f in facts.files.files)
    )
