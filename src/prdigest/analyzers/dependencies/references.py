"""``-r`` / ``-c`` references in changed requirements files, and how the PR changed them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from prdigest.analyzers.dependencies.sources import declarations
from prdigest.models.pullrequest import PullRequest


@dataclass(frozen=True)
class RequirementReference:
    path: str  # the requirements file holding the line
    option: str  # "-r" (include) or "-c" (constraints)
    target: str
    change: Literal["added", "removed", "unchanged"]


def requirement_references(pr: PullRequest) -> list[RequirementReference]:
    found: list[RequirementReference] = []
    for change in pr.files:
        declared = declarations(change)
        if declared is None or declared.source_kind != "requirements":
            continue
        before = {(r.option, r.target) for r in declared.before.references}
        after = {(r.option, r.target) for r in declared.after.references}
        for option, target in sorted(before | after):
            state: Literal["added", "removed", "unchanged"] = (
                "unchanged"
                if (option, target) in before and (option, target) in after
                else "added"
                if (option, target) in after
                else "removed"
            )
            found.append(RequirementReference(change.path, option, target, state))
    return found
