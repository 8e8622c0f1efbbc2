"""The one-line summary: the PR's own title, with the main fact of the change."""

from __future__ import annotations

from prdigest.models.facts import Facts
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.extractive.changes import change_shape, short_dependency
from prdigest.narrate.extractive.phrases import Phrases
from prdigest.narrate.extractive.text import clean_title


def file_count(count: int, ph: Phrases) -> str:
    return ph.say("summary", "files_one") if count == 1 else ph.say("summary", "files_many", count=count)


def one_line(pr: PullRequest, facts: Facts, ph: Phrases) -> str:
    title = clean_title(pr.title)
    shape = change_shape(facts)
    changes = facts.dependencies.changes
    if shape == "dependency-only" and len(changes) == 1:
        return ph.say("summary", "with_dependency", title=title, dependency=short_dependency(changes[0], ph))
    if shape == "empty":
        return title
    return ph.say(
        "summary",
        "with_shape",
        title=title,
        shape=ph.say("shape", shape),
        files=file_count(facts.files.total_files or len(facts.files.files), ph),
        additions=facts.files.total_additions,
        deletions=facts.files.total_deletions,
    )
