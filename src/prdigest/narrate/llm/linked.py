"""Linked context: the related PRs' and issues' own words, for the prompt's ``## linked`` block.

A restore is only explained by the PR it restores and the revert in between, a fix by the
issue's root-cause analysis: so for each related item the caller (`pipeline.linked_context`)
hands its title, body (templates removed) and a short diff summary, or why they are not
available. Items come most relevant first; `fit_linked` keeps whole items while they fit,
cuts the first one that does not to its room, and names every item left out, so the
narrative's ``omitted_from_prompt`` says what the model did not see. The text is untrusted
data like the PR's own: it goes inside the prompt's fenced data block.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from prdigest.narrate.llm.tokens import estimate_tokens, truncate_to_tokens

# Tokens of one item's body at most, so one long issue does not crowd out the others.
MAX_BODY_TOKENS = 600
# An item cut to fit keeps at least this many tokens of body, else it is left out whole.
MIN_CUT_TOKENS = 40

LinkedKind = Literal["pr", "issue"]


@dataclass(frozen=True)
class LinkedItem:
    kind: LinkedKind
    repository: str
    number: int
    relation: str  # as the related list names it, from this PR's side ("restores", "fixes")
    title: str = ""
    body: str = ""
    diff_summary: str = ""  # PRs: their changed files with counts, and changed symbols
    unavailable: str = ""  # why the source could not give title and body ("" when it did)

    @property
    def fact_id(self) -> str:
        return f"linked:{self.number}"

    def label(self) -> str:
        noun = "PR" if self.kind == "pr" else "issue"
        return f"{noun} #{self.number} ({self.repository}, {self.relation})"


@dataclass(frozen=True)
class LinkedBlock:
    text: str
    kept: list[LinkedItem]
    omitted: list[str]


def linked_need(items: Sequence[LinkedItem]) -> int:
    """Tokens the whole block takes when nothing is cut."""
    return sum(estimate_tokens(_render(item, MAX_BODY_TOKENS)) + 1 for item in items)


def fit_linked(items: Sequence[LinkedItem], allowance: int) -> LinkedBlock:
    """The items (most relevant first) in at most `allowance` tokens."""
    parts: list[str] = []
    kept: list[LinkedItem] = []
    omitted: list[str] = []
    left = allowance
    for item in items:
        if item.unavailable:
            omitted.append(f"{item.label()}: {item.unavailable}")
        whole = _render(item, MAX_BODY_TOKENS)
        cost = estimate_tokens(whole) + 1
        if cost <= left:
            parts.append(whole)
            kept.append(item)
            left -= cost
            continue
        head_cost = estimate_tokens(_render(item, 0)) + 1
        if item.body and left - head_cost >= MIN_CUT_TOKENS:
            room = left - head_cost - 2
            cut = _render(item, room)
            while estimate_tokens(cut) + 1 > left and room > 0:  # the body's indent and marker cost too
                room = max(room - (estimate_tokens(cut) + 1 - left), 0)
                cut = _render(item, room)
            parts.append(cut)
            kept.append(item)
            left -= estimate_tokens(cut) + 1
            omitted.append(f"{item.label()}: body cut to fit the budget")
            continue
        omitted.append(f"{item.label()}: left out to fit the budget")
    return LinkedBlock("\n".join(parts), kept, omitted)


def _render(item: LinkedItem, body_tokens: int) -> str:
    lines = [f"[{item.fact_id}] {item.label()}: {' '.join(item.title.split()) or '(title not available)'}"]
    if item.unavailable:
        lines.append(f"  body: not available ({item.unavailable})")
    elif item.body:
        body, _ = truncate_to_tokens(item.body, max(body_tokens, 0))  # a cut ends in a "…" line
        if body:
            lines.append("  body: " + body.replace("\n", "\n  "))
    else:
        lines.append("  body: (empty)")
    if item.diff_summary:
        lines.append(f"  diff: {item.diff_summary}")
    return "\n".join(lines)
