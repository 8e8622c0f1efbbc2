"""The one-line summary, in the reader's language: the author's own sentence saying what the
whole PR does when the body has one written in that language; otherwise a sentence built
from the facts (`gist`), and the title only when the facts say nothing. A short note on the kind of change is
added to the author's words only when it adds something."""

from __future__ import annotations

import re

from prdigest.models.facts import Facts
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.extractive.changes import change_shape, short_dependency
from prdigest.narrate.extractive.gist import fact_summary, is_revert_gist
from prdigest.narrate.extractive.intent import lower_first, title_intent
from prdigest.narrate.extractive.text import clean_title, repeats_title, summary_sentence
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


def in_reader_script(text: str, ph: Phrases) -> bool:
    """Whether `text` is written in the reader's script (the words' ``[gist] own_script``)."""
    return re.search(ph.tables["gist"]["own_script"], text) is not None


def in_reader_language(text: str, ph: Phrases) -> bool:
    """Whether `text` reads in the reader's language: in its script and in no other that
    marks another language (an English reader's title with Chinese in it is not his)."""
    return in_reader_script(text, ph) and re.search(ph.tables["gist"]["other_scripts"], text) is None


def quoted_lead(pr: PullRequest, ph: Phrases) -> str | None:
    """The author's summary sentence when the one-line summary quotes it (it is in the reader's
    language), so the other sections do not quote it again; else None."""
    sentence = _summary_sentence(pr)
    return sentence if sentence and in_reader_script(sentence, ph) else None


def _summary_sentence(pr: PullRequest) -> str | None:
    """The body's summary sentence, unless it only repeats the title."""
    sentence = summary_sentence(pr.body, repository=pr.repository)
    return None if sentence is None or repeats_title(sentence, pr.title) else sentence


def one_line(pr: PullRequest, facts: Facts, ph: Phrases) -> str:
    title = clean_title(pr.title)
    sentence = _summary_sentence(pr)
    # No summary sentence in the reader's language: the facts say what changed (and why, when
    # they know); the title is only the last resort, when the facts say nothing.
    if sentence is None or not in_reader_script(sentence, ph):
        built = fact_summary(pr, facts, ph)
        if built:
            # The title says what the author meant, the facts what the change does: together
            # they state the purpose. A title in another language is left to the header.
            intent = None if is_revert_gist(pr, facts) else title_intent(pr.title)
            if intent is not None and in_reader_language(intent, ph):
                return ph.say("summary", "intent_effect", intent=intent, effect=lower_first(built))
            return built
    shape = change_shape(facts)
    changes = facts.dependencies.changes
    if shape == "dependency-only" and len(changes) == 1:
        said = title_intent(pr.title) or title
        return ph.say("summary", "with_dependency", title=said, dependency=short_dependency(changes[0], ph))
    # The author's sentence is quoted, as the seeds do: the reader sees whose words these are.
    text = ph.say("summary", "quoted", quote=ph.quote(sentence)) if sentence else title
    pattern = _SHAPE_WORDS.get(shape)
    if shape in ("empty", "unknown", "source") or (pattern is not None and pattern.search(title)):
        return text
    return ph.say("summary", "with_kind", text=text, shape=ph.say("shape", shape))
