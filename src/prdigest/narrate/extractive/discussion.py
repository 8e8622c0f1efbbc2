"""Discussion highlights (who said what, quoted) and one line per thread, from the discussion
facts only: no thread in the facts means no highlight here."""

from __future__ import annotations

from prdigest.models.facts import DiscussionThread, Facts
from prdigest.models.narrative import DiscussionHighlight, Length, ThreadLine
from prdigest.narrate.extractive.text import collapse, shorten
from prdigest.words import Phrases

MAX_HIGHLIGHTS = {"full": 5, "brief": 2}
MAX_THREADS = {"full": 10, "brief": 4}
MAX_QUOTES = {"full": 2, "brief": 1}
QUOTE_CHARS = {"full": 220, "brief": 160}

_KIND_WEIGHT = {"correctness": 5, "design": 4, "performance": 3, "question": 2, "style": 1, "other": 0}


def _substantive(thread: DiscussionThread) -> bool:
    return any(not q.is_bot or thread.automated for q in thread.quotes)


def _rank(thread: DiscussionThread) -> tuple[int, int]:
    open_point = 1 if thread.outcome in ("unresolved", "no-reply") else 0
    return (-_KIND_WEIGHT.get(thread.kind, 0), -open_point)


def highlights(facts: Facts, length: Length, ph: Phrases) -> list[DiscussionHighlight]:
    threads = sorted((t for t in facts.discussion.threads if _substantive(t)), key=_rank)
    found = []
    for thread in threads[: MAX_HIGHLIGHTS[length]]:
        quotes = [q for q in thread.quotes if not q.is_bot or thread.automated][: MAX_QUOTES[length]]
        said = [
            ph.say("discussion", "said", author=q.author, quote=ph.quote(shorten(q.text, QUOTE_CHARS[length])))
            for q in quotes
            if collapse(q.text)
        ]
        if thread.suggestion is not None:
            said.append(_suggested(thread, ph))
        if not said:
            continue
        summary = ph.tables["quote"]["clause_sep"].join(said)
        outcome = ph.labels.lookup("thread_outcomes", thread.outcome)
        summary += ph.say("discussion", "outcome", outcome=outcome)
        found.append(DiscussionHighlight(topic=_topic(thread, ph), who=_who(thread, ph), summary=summary))
    return found


def _suggested(thread: DiscussionThread, ph: Phrases) -> str:
    """A GitHub suggestion as the change it proposes (its point, even with no prose around it)."""
    author = thread.quotes[0].author if thread.quotes else ""
    if not thread.suggestion:
        return ph.say("discussion", "suggests_deleting", author=author)
    code = " ⏎ ".join(line.strip() for line in thread.suggestion.split("\n") if line.strip())
    return ph.say("discussion", "suggests", author=author, code=ph.code(shorten(code, 200)))


def _topic(thread: DiscussionThread, ph: Phrases) -> str:
    """The thread's topic; a suggestion-only comment is named by the change it proposes."""
    if thread.suggestion is not None and not any(collapse(q.text) for q in thread.quotes[:1]):
        if not thread.suggestion:
            return ph.say("discussion", "suggestion_delete_topic")
        return ph.say("discussion", "suggestion_topic", code=ph.code(collapse(thread.topic)))
    return collapse(thread.topic)


def _who(thread: DiscussionThread, ph: Phrases) -> str:
    people = list(dict.fromkeys(thread.participants or [q.author for q in thread.quotes]))
    if not people:
        return ph.say("discussion", "automated") if thread.automated else ""
    return " vs ".join(people[:3]) if len(people) > 1 else people[0]


def thread_lines(facts: Facts, length: Length, ph: Phrases) -> list[ThreadLine]:
    lines = []
    for thread in facts.discussion.threads[: MAX_THREADS[length]]:
        people = list(dict.fromkeys(thread.participants))
        note = ph.say("discussion", "participants", names=ph.join(people)) if people else ""
        lines.append(ThreadLine(topic=_topic(thread, ph), kind=thread.kind, outcome=thread.outcome, note=note))
    return lines
