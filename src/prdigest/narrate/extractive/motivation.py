"""Motivation: why the PR exists, in the report's own words where the facts know it (the
problem it fixes and where it was reported, the PR whose code was at fault, the change it
brings back or follows up), then the body's most telling sentence as evidence, one quote at
most, and the issues/PRs it cites. With no body, it says so and quotes what the commits list."""

from __future__ import annotations

import re

from prdigest.models.facts import Facts
from prdigest.models.narrative import Length
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.extractive.gist import fixed_kinds, fixed_refs
from prdigest.narrate.extractive.metadata_blocks import is_metadata
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
# "[Release notes](https://…)": a link a bot lists, no reason.
_CAUSE = re.compile(r"\b(?:because|root cause|caused by|due to)\b|因为|由于|导致", re.IGNORECASE)
_LINK_ONLY = re.compile(r"^\W*\[[^\]]*\]\([^)]*\)\W*$")
# A brief says why in at most two sentences: what the facts know first, then the quote.
MAX_PARTS = {"full": 6, "brief": 2}


MAX_QUOTE = 200  # one short quote: the evidence, not the explanation
MAX_OWN_REFS = 2


def motivation(pr: PullRequest, facts: Facts, length: Length, ph: Phrases) -> str:
    paragraphs = [p for p in body_sections(pr.body, pr.repository).motivation if not is_metadata(p, pr.body)]
    lead = quoted_lead(pr, ph)
    # The one-line summary already quotes `lead`, and the header shows the title; say something else here.
    others = [
        s
        for s in sentences(paragraphs)
        if not covered_by(s, lead) and not repeats_title(s, pr.title) and not is_generated_subject(s)
    ]
    # The one quote is the evidence of why: a sentence that gives the cause, when one does.
    causes = [s for s in others if _CAUSE.search(s)]
    quoted = [shorten(s, MAX_QUOTE) for s in key_sentences(causes or others, 1)]
    parts, named = own_words(pr, facts, ph)
    if quoted:
        parts.append(ph.say("motivation", "body_says", quotes=ph.quotes(quoted)))
    else:
        # A body of bullets and no sentence ("Fixed these:" and a list of advisories) still
        # says why: its first point is quoted, never "no motivation".
        listed = [] if lead or _TEMPLATE_MARK.search(pr.body) else _points([f"{pr.title}\n\n{pr.body}"], pr.title)
        if lead:
            parts.append(ph.say("motivation", "lead_only"))
        elif listed:
            parts.append(ph.say("motivation", "body_points", quotes=ph.quotes(listed)))
        else:
            parts.append(ph.say("motivation", _no_motivation(pr.body)))
        messages = [c.message for c in pr.commits if not c.subject.lower().startswith("merge")]
        # the body's list is quoted; the commits' (the same text, from git) is not quoted again
        points = [] if listed else _points(messages, pr.title)
        if points:
            parts.append(ph.say("motivation", "commit_points", quotes=ph.quotes(points)))
        elif not listed and not any(_has_own_lines(message) for message in messages):
            # A message with lines of its own says more than the title (a bot's list of links,
            # a wrapped paragraph), only nothing to quote as a reason: then nothing is said of it.
            parts.append(ph.say("motivation", "no_points"))
    # A reference the own words named already is not cited again, nor closed.
    cited = [(target, text) for target, text in cited_references(facts, ph) if target not in named]
    if cited:
        parts.append(ph.say("motivation", "cites", refs=ph.join([text for _, text in cited])))
    named |= {target for target, _ in cited}
    closing = [f"#{n}" for n in pr.closing_issues if f"#{n}" not in named]
    if closing:
        parts.append(ph.say("motivation", "closes", refs=ph.join(closing)))
    return ph.sentences(parts[: MAX_PARTS[length]])


# What a template leaves in a body: headings, checklists, HTML comments, "SUMMARY:" labels.
_TEMPLATE_MARK = re.compile(r"^\s*(?:#{1,6}\s|[-*]\s+\[[ xX]\]|<!--)|^[A-Z][A-Z ]{2,}:", re.MULTILINE)
# A git trailer ("Signed-off-by: …", "Co-authored-by: …"): who, not why.
_TRAILER = re.compile(r"^[\w-]+-by:\s", re.IGNORECASE)


def _points(messages: list[str], title: str) -> list[str]:
    """The first point the messages list beyond the title, shortened: no bare link, no metadata."""
    return [
        shorten(point, MAX_QUOTE)
        for point in commit_points(messages, title)
        if not _LINK_ONLY.match(point) and not any(is_metadata(point, message) for message in messages)
    ][:1]


def _no_motivation(body: str) -> str:
    """The phrase for a body that gives no reason: empty, a template, or anything else
    (trailers, a bot's list) that is no template either."""
    if not body.strip():
        return "empty"
    return "template_only" if _TEMPLATE_MARK.search(body) else "no_motivation"


def _has_own_lines(message: str) -> bool:
    """Whether a commit message has lines beyond its subject and trailers."""
    lines = [line.strip() for line in message.replace("\r\n", "\n").split("\n")[1:]]
    return any(line and not _TRAILER.match(line) for line in lines)


def own_words(pr: PullRequest, facts: Facts, ph: Phrases) -> tuple[list[str], set[str]]:
    """What the facts know of why, as sentences in the report's language (the class of bug
    fixed and the issues it was reported in, the PR that wrote the code at fault by git blame,
    the change brought back, the PRs followed up), and the references (``#12``) they name."""
    parts: list[str] = []
    kinds = fixed_kinds(facts)
    refs = fixed_refs(pr, facts)[:MAX_OWN_REFS]
    shown = ph.join(refs)
    if kinds:
        kind = ph.labels.lookup("fix_kinds", kinds[0])
        parts.append(ph.say("motivation", "problem_kind_refs" if refs else "problem_kind", kind=kind, refs=shown))
    elif refs:
        parts.append(ph.say("motivation", "problem_refs", refs=shown))
    causes: list[str] = []
    for cause in facts.lineage.root_cause_in[:1]:
        ref = f"#{cause.number}"
        causes.append(ref)
        if cause.days_between:
            parts.append(ph.say("motivation", "cause_blame", ref=ref, days=cause.days_between))
        else:
            parts.append(ph.say("motivation", "cause_blame_undated", ref=ref))
    restored = [f"#{r.number}" for r in facts.references.references if r.relation == "restores"][:MAX_OWN_REFS]
    if restored:
        parts.append(ph.say("motivation", "brings_back", refs=ph.join(restored)))
    followed = [f"#{f.number}" for f in facts.lineage.follows_up][:MAX_OWN_REFS]
    if followed:
        parts.append(ph.say("motivation", "follows_up", refs=ph.join(followed)))
    return parts, {*refs, *causes, *restored, *followed}


def cited_references(facts: Facts, ph: Phrases) -> list[tuple[str, str]]:
    """``("#43530", "#43530 (mentions)")`` for each PR/issue the title or body cites, first
    mention first: the target and how it is cited."""
    seen: set[tuple[str, int]] = set()
    cited: list[tuple[str, str]] = []
    for ref in facts.references.references:
        key = (ref.repository.lower(), ref.number)
        if ref.where not in _CITED_WHERE or key in seen:
            continue
        seen.add(key)
        same_repo = ref.repository.lower() == facts.repository.lower()
        target = f"#{ref.number}" if same_repo else f"{ref.repository}#{ref.number}"
        text = ph.say("motivation", "ref_with_relation", ref=target, relation=ph.labels.relation(ref.relation))
        cited.append((target, text))
    return cited
