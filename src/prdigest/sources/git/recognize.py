"""Recognize pull requests in commit messages: GitHub's squash and merge-commit shapes."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

# "Title (#123)" — the subject GitHub writes for squash merges (and rebase merges of one commit).
_SQUASH_SUBJECT = re.compile(r"^(?P<title>.*?)\s*\(#(?P<number>[1-9][0-9]{0,9})\)\s*$")
# "Merge pull request #123 from owner/branch" — GitHub's merge-commit subject.
_MERGE_SUBJECT = re.compile(r"^Merge pull request #(?P<number>[1-9][0-9]{0,9}) from (?P<branch>\S+)")

PATTERNS_LOOKED_FOR: tuple[str, ...] = (
    "squash commits ending in (#N)",
    "merge commits 'Merge pull request #N from ...'",
    "refs/pull/N/head",
)


class PRShape(StrEnum):
    SQUASH = "squash"
    MERGE = "merge"


@dataclass(frozen=True, slots=True)
class RecognizedPR:
    number: int
    shape: PRShape
    title: str
    body: str
    branch: str | None = None


def recognize(message: str) -> RecognizedPR | None:
    """The PR a commit message records, or None when it is not PR-shaped."""
    subject, _sep, rest = message.partition("\n")
    subject = subject.strip()
    merge = _MERGE_SUBJECT.match(subject)
    if merge is not None:
        branch = merge.group("branch")
        body_lines = rest.strip("\n").split("\n") if rest.strip() else []
        title_at = next((i for i, line in enumerate(body_lines) if line.strip()), None)
        if title_at is None:
            return RecognizedPR(int(merge.group("number")), PRShape.MERGE, branch, "", branch)
        title = body_lines[title_at].strip()
        body = "\n".join(body_lines[title_at + 1 :]).strip("\n")
        return RecognizedPR(int(merge.group("number")), PRShape.MERGE, title, body, branch)
    squash = _SQUASH_SUBJECT.match(subject)
    if squash is not None:
        title = squash.group("title").strip() or subject
        return RecognizedPR(int(squash.group("number")), PRShape.SQUASH, title, rest.strip("\n"))
    return None
