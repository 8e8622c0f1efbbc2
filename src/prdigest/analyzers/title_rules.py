"""What a PR's title and body say it is: a revert, a typo fix. Rules on text only, so the
narrator (`prdigest.narrate.extractive.gist`) reads them without loading the syntax analyzers
`prdigest.analyzers.behaviour` needs; behaviour, the verdict and the regression-test check
use the same rules."""

from __future__ import annotations

import re

from prdigest.models.pullrequest import PullRequest

_REVERT_TITLE = re.compile(r"^\s*(?:\[[^\]]*\]\s*)*revert\b", re.IGNORECASE)
_REVERT_BODY = re.compile(r"\bThis reverts commit (?P<sha>[0-9a-fA-F]{7,40})\b")
# git's revert subject, alone on its line or as an item of a squashed branch's commit list.
_REVERT_SUBJECT = re.compile(r'^\s*(?:[*-]\s+)?Revert\s+"(?P<subject>.+)"\s*$')
# An item of the commit list GitHub writes into a squash commit: "* fix the cache".
_SQUASH_ITEM = re.compile(r"^\s*[*-]\s+(?P<subject>\S.*?)\s*$")
# A typo fix by its title: typo, spelling, misspelled, 错别字, 拼写, or "fix grammar" (prose);
# "grammar for X" / "grammar of X" is a parser's grammar, a real change.
_TYPO_TITLE = re.compile(
    r"\b(?:typos?|spelling|misspell\w*)\b|错别字|拼写|笔误|"
    r"\b(?:fix(?:es|ed|ing)?|correct(?:s|ed|ing)?)\s+(?:\w+\s+){0,2}?grammar\b(?!\s+(?:for|of|to)\b)",
    re.IGNORECASE,
)


def is_revert(pr: PullRequest) -> bool:
    """The title says "Revert …" or the body carries git's "This reverts commit <sha>" for a
    commit that is not one of the PR's own (`own_reverted_shas`)."""
    if _REVERT_TITLE.match(pr.title):
        return True
    own = own_reverted_shas(pr)
    return any(m.group("sha").lower() not in own for m in _REVERT_BODY.finditer(pr.body))


def own_reverted_shas(pr: PullRequest) -> frozenset[str]:
    """SHAs named by "This reverts commit <sha>" lines that undo one of the PR's own commits: a
    step taken back on its branch, which reverts nothing of the base. Known as one of the PR's
    commits, or, in a squash commit's list, by the subject of an item listed before it
    ("* Try X" … "* Revert "Try X"" / "This reverts commit …")."""
    shas = [c.sha.lower() for c in pr.commits]
    own: set[str] = set()
    for text in (pr.body, *(c.message for c in pr.commits)):
        listed: set[str] = set()
        reverted: str | None = None
        for line in text.splitlines():
            if found := _REVERT_BODY.search(line):
                sha = found.group("sha").lower()
                if (reverted is not None and reverted in listed) or any(s.startswith(sha) for s in shas):
                    own.add(sha)
                reverted = None
                continue
            if subject := _REVERT_SUBJECT.match(line):
                reverted = _words(subject.group("subject"))
            elif line.strip():
                reverted = None
            if item := _SQUASH_ITEM.match(line):
                listed.add(_words(item.group("subject")))
    return frozenset(own)


def _words(text: str) -> str:
    return " ".join(text.split()).lower()


def is_typo_fix(pr: PullRequest) -> bool:
    """The title says it fixes a typo, a spelling or the grammar of prose (one rule for the
    verdict, the regression-test check and the one-line summary)."""
    return _TYPO_TITLE.search(pr.title) is not None
