"""Motivation: the body's key sentences quoted verbatim, and the issues/PRs it cites."""

from __future__ import annotations

from prdigest.models.facts import Facts
from prdigest.models.narrative import Length
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.extractive.phrases import Phrases
from prdigest.narrate.extractive.text import clean_title, collapse, key_sentences, split_body

_CITED_WHERE = ("title", "body", "closing-issue")


def motivation(pr: PullRequest, facts: Facts, length: Length, ph: Phrases) -> str:
    count = 3 if length == "full" else 2
    quoted = key_sentences(split_body(pr.body).motivation, count)
    parts: list[str] = []
    if quoted:
        parts.append(ph.say("motivation", "body_says", quotes=ph.quotes(quoted)))
    else:
        commit_text = [collapse(c.message) for c in pr.commits if not c.subject.lower().startswith("merge")]
        from_commits = key_sentences([t for t in commit_text if t], count)
        if from_commits:
            parts.append(ph.say("motivation", "commits_say", quotes=ph.quotes(from_commits)))
        else:
            parts.append(ph.say("motivation", "nothing", title=ph.quote(clean_title(pr.title))))
    cited = cited_references(facts, ph)
    if cited:
        parts.append(ph.say("motivation", "cites", refs=ph.join(cited)))
    closing = [f"#{n}" for n in pr.closing_issues if f"#{n}" not in " ".join(cited)]
    if closing:
        parts.append(ph.say("motivation", "closes", refs=ph.join(closing)))
    return ph.sentences(parts)


def cited_references(facts: Facts, ph: Phrases) -> list[str]:
    """``#43530 (mentions)`` for each PR/issue the title or body cites, first mention first."""
    seen: set[tuple[str, int]] = set()
    cited: list[str] = []
    for ref in facts.references.references:
        key = (ref.repository.lower(), ref.number)
        if ref.where not in _CITED_WHERE or key in seen:
            continue
        seen.add(key)
        same_repo = ref.repository.lower() == facts.repository.lower()
        target = f"#{ref.number}" if same_repo else f"{ref.repository}#{ref.number}"
        cited.append(ph.say("motivation", "ref_with_relation", ref=target, relation=ph.labels.relation(ref.relation)))
    return cited
