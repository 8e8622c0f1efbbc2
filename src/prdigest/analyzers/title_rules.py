"""What a PR's title and body say it is: a revert, a typo fix. Rules on text only, so the
narrator (`prdigest.narrate.extractive.gist`) reads them without loading the syntax analyzers
`prdigest.analyzers.behaviour` needs; behaviour, the verdict and the regression-test check
use the same rules."""

from __future__ import annotations

import re

from prdigest.models.pullrequest import PullRequest

_REVERT_TITLE = re.compile(r"^\s*(?:\[[^\]]*\]\s*)*revert\b", re.IGNORECASE)
_REVERT_BODY = re.compile(r"\bThis reverts commit [0-9a-f]{7,40}\b")
# A typo fix by its title: typo, spelling, misspelled, 错别字, 拼写, or "fix grammar" (prose);
# "grammar for X" / "grammar of X" is a parser's grammar, a real change.
_TYPO_TITLE = re.compile(
    r"\b(?:typos?|spelling|misspell\w*)\b|错别字|拼写|笔误|"
    r"\b(?:fix(?:es|ed|ing)?|correct(?:s|ed|ing)?)\s+(?:\w+\s+){0,2}?grammar\b(?!\s+(?:for|of|to)\b)",
    re.IGNORECASE,
)


def is_revert(pr: PullRequest) -> bool:
    """The title says "Revert …" or the body carries git's "This reverts commit <sha>"."""
    return bool(_REVERT_TITLE.match(pr.title) or _REVERT_BODY.search(pr.body))


def is_typo_fix(pr: PullRequest) -> bool:
    """The title says it fixes a typo, a spelling or the grammar of prose (one rule for the
    verdict, the regression-test check and the one-line summary)."""
    return _TYPO_TITLE.search(pr.title) is not None
