"""The one-line summary: the author's own sentence saying what the PR does when the body has
one, else the title; a short note on the kind of change only when it adds something."""

from __future__ import annotations

import re

from prdigest.models.facts import Facts
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.extractive.changes import change_shape, short_dependency
from prdigest.narrate.extractive.text import clean_title, summary_sentence
from prdigest.words import Phrases

# The title already says the kind of change when it carries one of these words.
_SHAPE_WORDS = {
    "ci-only": re.compile(r"\b(?:ci|workflows?|pipelines?|github actions|jenkins)\b", re.I),
    "tests-only": re.compile(r"\btests?\b|\btesting\b", re.I),
    "docs-only": re.compile(r"\bdocs?\b|\bdocumentation\b|\breadme\b", re.I),
    "config-only": re.compile(r"\b(?:config|configuration|codeowners|settings?)\b", re.I),
    "non-source": re.compile(r"\b(?:version|release|bump|chore)\b", re.I),
}


def file_count(count: int, ph: Phrases) -> str:
    return ph.say("summary", "files_one") if count == 1 else ph.say("summary", "files_many", count=count)


def one_line(pr: PullRequest, facts: Facts, ph: Phrases) -> str:
    title = clean_title(pr.title)
    shape = change_shape(facts)
    changes = facts.dependencies.changes
    if shape == "dependency-only" and len(changes) == 1:
        return ph.say("summary", "with_dependency", title=title, dependency=short_dependency(changes[0], ph))
    sentence = summary_sentence(pr.body, repository=pr.repository)
    # The author's sentence is quoted, as the seeds do: the reader sees whose words these are.
    text = ph.say("summary", "quoted", quote=ph.quote(sentence)) if sentence else title
    pattern = _SHAPE_WORDS.get(shape)
    if shape in ("empty", "unknown", "source") or (pattern is not None and pattern.search(title)):
        return text
    return ph.say("summary", "with_kind", text=text, shape=ph.say("shape", shape))
