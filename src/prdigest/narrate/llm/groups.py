"""File-group summaries: what stands in for the diffs a large PR's prompt had to leave out.

When even the compressed diff leaves files out of the prompt altogether (named only, or only
counted), those files are split into at most ``group_calls`` groups, in order of importance;
the model is asked for a short summary of each group (one call per group, each within the
token budget, each costed), and the final prompt carries the summaries in a room kept for
them, next to the compressed diff and the omitted list. Every file of a group is named with
its summary. A group whose call fails is given as the plain list of its files instead, and
the narrative says so (`GroupSummary.note`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from string import Template
from typing import Any

from prdigest.models.facts import Facts
from prdigest.models.pullrequest import FileChange, PullRequest
from prdigest.narrate.llm.budget import compress_diff, file_header, rank_files
from prdigest.narrate.llm.prompt import GROUPS_TITLE, fence
from prdigest.narrate.llm.tokens import MESSAGE_OVERHEAD_TOKENS, estimate_tokens, truncate_to_tokens
from prdigest.words import Lang, words

# Share of the prompt's room (after the instructions) kept for the summaries.
GROUPS_SHARE = 0.25
# A summary is asked to be short; what the model writes beyond this is cut.
SUMMARY_TOKENS = 300
SUMMARY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"summary": {"type": "string"}},
    "required": ["summary"],
    "additionalProperties": False,
}


@dataclass(frozen=True)
class FileGroup:
    number: int  # 1-based
    of: int  # how many groups
    paths: list[str]


@dataclass(frozen=True)
class GroupSummary:
    group: FileGroup
    text: str  # the model's summary (sanitized); "" when the call failed
    failure: str = ""  # why there is no summary

    @property
    def note(self) -> str:
        """The omitted-list entry saying what stands in for the group's diffs."""
        where = f"file group {self.group.number} of {self.group.of} ({len(self.group.paths)} files)"
        if self.failure:
            return f"{where}: diffs left out; its summary call failed ({self.failure}), so it is listed only"
        return f"{where}: diffs summarized by the model in a separate call"


def groups_room(budget: int) -> int:
    """Tokens the final prompt keeps for the summaries while the groups are planned."""
    return int(budget * GROUPS_SHARE)


def room_for(text: str, room: int) -> int:
    """The room the final prompt needs for `text` (at most `room`): what the summaries leave
    unused goes back to the diff, which can then only show more, never less."""
    return min(room, estimate_tokens(GROUPS_TITLE) + estimate_tokens(text) + 4)


def plan_groups(pr: PullRequest, facts: Facts, left_out: list[str], budget: int, max_groups: int) -> list[FileGroup]:
    """`left_out` (paths, most important first) in at most `max_groups` groups of about equal
    diff size, each small enough for one call within `budget` where the cap allows."""
    if not left_out or max_groups <= 0:
        return []
    by_path = {change.path: change for change in pr.files}
    sizes = [_diff_tokens(by_path[path]) if path in by_path else 1 for path in left_out]
    room = max(budget - _fixed_tokens(pr), 1)
    count = max(1, min(max_groups, math.ceil(sum(sizes) / room), len(left_out)))
    target = sum(sizes) / count
    groups: list[list[str]] = [[]]
    filled = 0.0
    for path, size in zip(left_out, sizes, strict=True):
        if groups[-1] and filled + size > target * len(groups) and len(groups) < count:
            groups.append([])
        groups[-1].append(path)
        filled += size
    return [FileGroup(number=n, of=len(groups), paths=paths) for n, paths in enumerate(groups, start=1)]


def group_messages(
    pr: PullRequest, facts: Facts, group: FileGroup, lang: Lang, budget: int, boundary: str
) -> tuple[list[dict[str, str]], int]:
    """The messages asking for `group`'s summary, within `budget` tokens, and their tokens."""
    said = words(lang)
    system = Template(said.text("prompts/group-system")).safe_substitute(boundary=boundary).strip()
    template = Template(said.text("prompts/group"))

    def user(data: str) -> str:
        return template.safe_substitute(
            ref=pr.ref,
            title=" ".join(pr.title.split()),
            group=group.number,
            groups=group.of,
            count=len(group.paths),
            words=said.table("llm", "group_summary")["length"],
            data=fence(data, boundary),
        ).strip()

    fixed = estimate_tokens(system) + estimate_tokens(user("")) + 2 * MESSAGE_OVERHEAD_TOKENS
    wanted = set(group.paths)
    part = pr.model_copy(update={"files": [f for f in pr.files if f.path in wanted], "changed_files_count": None})
    diff_budget = max(budget - fixed, 0)
    while True:
        digest = compress_diff(part, facts, diff_budget)
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user(digest.text)}]
        tokens = sum(estimate_tokens(m["content"]) + MESSAGE_OVERHEAD_TOKENS for m in messages)
        if tokens <= budget or diff_budget == 0:
            return messages, tokens
        diff_budget = max(diff_budget - (tokens - budget), 0)


def summaries_text(pr: PullRequest, facts: Facts, summaries: list[GroupSummary]) -> str:
    """The block of the final prompt: every group's summary (or that it has none) first, then
    the files of each group (a failed group's with their size and category, the offline
    list), so that a cut to fit loses file names the diff section names anyway, not summaries."""
    headers = {item.path: file_header(item).removeprefix("### ") for item in rank_files(pr, facts)}
    lines: list[str] = []
    for summary in summaries:
        group = summary.group
        said = "no summary (the call failed); its files are listed below" if summary.failure else summary.text
        lines.append(f"group {group.number} ({len(group.paths)} files): {' '.join(said.split())}")
    for summary in summaries:
        group = summary.group
        if summary.failure:
            lines.append(f"files of group {group.number}:")
            lines.extend(f"- {headers.get(path, path)}" for path in group.paths)
        else:
            lines.append(f"files of group {group.number}: {', '.join(group.paths)}")
    return "\n".join(lines)


def cut_summary(text: str) -> str:
    return truncate_to_tokens(text.strip(), SUMMARY_TOKENS)[0]


def _diff_tokens(change: FileChange) -> int:
    return estimate_tokens(change.patch or "") + estimate_tokens(change.path) + 8


def _fixed_tokens(pr: PullRequest) -> int:
    # The group prompt's instructions and title: a few hundred tokens in either language.
    return 300 + estimate_tokens(pr.title)
