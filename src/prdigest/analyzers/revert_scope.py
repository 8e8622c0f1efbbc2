"""Is a PR's diff the revert it names, or a merge of many commits of which one reverts?

A release or branch merge lists every commit it brings, and a ``Revert "…"`` among them
names an earlier PR; the merge's diff is all of those commits, so neither its size nor its
gist is the revert's. The verdict (how much is pulled back) and the one-liner ("Reverts
#N") rest on this.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from prdigest.models.facts import Reference
from prdigest.models.pullrequest import PullRequest

_REVERT_SUBJECT = re.compile(r"^\W*(?:revert(?:s|ed|ing)?\b|回退|撤销)", re.IGNORECASE)


def is_the_revert(pr: PullRequest, reverted: Iterable[Reference]) -> bool:
    """One commit (or none known), a title that names the revert, or commits that all revert."""
    if len(pr.commits) <= 1 or any(r.where == "title" for r in reverted):
        return True
    return all(_REVERT_SUBJECT.search(c.subject) for c in pr.commits)
