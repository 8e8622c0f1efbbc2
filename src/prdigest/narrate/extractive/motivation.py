"""Motivation: the body's opening and its most telling sentences quoted verbatim, and the
issues/PRs it cites. With no body, it says so and quotes what the commits list."""

from __future__ import annotations

from prdigest.models.facts import Facts
from prdigest.models.narrative import Length
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.extractive.summary import quoted_lead
from prdigest.narrate.extractive.text import (
    body_sections,
    commit_points,
    covered_by,
    is_generated_subject,
    key_sentences,
    repeats_title,
    sentences,
    shorten,
)
from prdigest.words import Phrases

_CITED_WHERE = ("title", "body", "closing-issue")
MAX_COMMIT_POINTS = {"full": 5, "brief": 2}
# A brief says why in at most three sentences: at most two quotes, then one more sentence.
MAX_PARTS = {"full": 6, "brief": 2}


def motivation(pr: PullRequest, facts: Facts, length: Length, ph: Phrases) -> str:
    count = 3 if length == "full" else 1
    paragraphs = body_sections(pr.body, pr.repository).motivation
    lead = quoted_lead(pr, ph)
    # The one-line summary already quotes `lead`, and the header shows the title; say something else here.
    others = [
        s
        for s in sentences(paragraphs)
        if not covered_by(s, lead) and not repeats_title(s, pr.title) and not is_generated_subject(s)
    ]
    quoted = key_sentences(others, count)
    parts: list[str] = []
    if quoted:
        parts.append(ph.say("motivation", "body_says", quotes=ph.quotes(quoted)))
    else:
        if lead:
            parts.append(ph.say("motivation", "lead_only"))
        else:
            parts.append(ph.say("motivation", "template_only" if pr.body.strip() else "empty"))
        messages = [c.message for c in pr.commits if not c.subject.lower().startswith("merge")]
        points = [shorten(p, 200) for p in commit_points(messages, pr.title)][: MAX_COMMIT_POINTS[length]]
        if points:
            parts.append(ph.say("motivation", "commit_points", quotes=ph.quotes(points)))
        else:
            parts.append(ph.say("motivation", "no_points"))
    cited = cited_references(facts, ph)
    if cited:
        parts.append(ph.say("motivation", "cites", refs=ph.join(cited)))
    closing = [f"#{n}" for n in pr.closing_issues if f"#{n}" not in " ".join(cited)]
    if closing:
        parts.append(ph.say("motivation", "closes", refs=ph.join(closing)))
    return ph.sentences(parts[: MAX_PARTS[length]])


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
