"""Deferrals: sentences saying that something is to be done later, and what it waits for.

"Relax the cap once 14.1.1 ships", "we can unpin once #58 lands", "TODO(#61): drop the shim",
"the cleanup is left for a follow-up": each names an action (relax, unpin, drop …) and a
condition (a release, a PR, a later PR). The cross-PR pass (pipeline/lineage.py) then looks
for the later PR that did it. Only sentences with both an action and a condition count, so
"this is a temporary fix" alone is no promise of anything.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Literal

from prdigest.analyzers.reference_patterns import (
    SHORT_FORM,
    mask_code_and_markup,
    mask_squashed_merges,
    quoted_spans,
    sentence_around,
    sentence_bounds,
)
from prdigest.models.facts import Deferral

DeferralWhere = Literal["title", "body", "commit", "comment", "review", "code"]

_ACTION = re.compile(
    r"\b(?:relax(?:ed|ing)?|unpin(?:ned|ning)?|un-?cap|lift(?:ed|ing)?|remov(?:e|ed|ing)|drop(?:ped|ping)?|"
    r"revert(?:ed|ing)?|re-?enabl(?:e|ed|ing)|restor(?:e|ed|ing)|bump(?:ed|ing)?|upgrad(?:e|ed|ing)|"
    r"switch(?:ed|ing)? (?:back|to)|clean(?:ed|ing)? up|delet(?:e|ed|ing)|undo|get rid of|re-?add)\b|"
    r"放开|放宽|移除|删除|恢复|回退|升级",
    re.I,
)
_CONDITION = re.compile(
    r"\b(?:once|until|till|when|after|as soon as)\b(?:[^.;:\n]|\.(?=\S)){0,80}?\b(?:ships?|shipped|lands?|landed|"
    r"(?:is|are|gets?|get|has been|have been) (?:released|merged|fixed|available|out|published|resolved)|"
    r"released|merged|comes? out|is out|available)\b|"
    r"\b(?:in|as|with) a (?:later|separate|future|follow[- ]?up)(?: pr| pull request| change| commit)?\b|"
    r"\bfollow[- ]?up (?:pr|pull request)\b|\bfor now\b|\btemporar(?:y|ily)\b|\blater\b|"
    r"\b(?:TODO|FIXME)\b|待.{0,10}(?:发布|合并)后|之后再",
    re.I,
)
_VERSION = re.compile(r"(?<![\w.])v?(\d+\.\d+(?:\.\d+)*(?:[a-z]+\d*)?)(?![\w.])", re.I)
_WORD = re.compile(r"[a-z][a-z0-9]*(?:[._-][a-z0-9]+)+|[a-z][a-z0-9]{2,}", re.I)
_MAX_WORDS = 24
# Words that never name a package: left out so `words` stays short.
_COMMON = frozenset(
    [
        "the",
        "and",
        "for",
        "this",
        "that",
        "once",
        "until",
        "when",
        "after",
        "can",
        "could",
        "should",
        "would",
        "will",
        "may",
        "might",
        "must",
        "with",
        "from",
        "into",
        "then",
        "now",
        "later",
        "lands",
        "ships",
        "merged",
        "released",
        "temporary",
        "temporarily",
        "todo",
        "fixme",
        "follow-up",
        "are",
        "was",
        "were",
        "has",
        "have",
        "been",
        "its",
        "our",
        "their",
        "here",
        "there",
        "not",
        "but",
        "also",
        "just",
    ]
)
_MAX_DEFERRALS = 8


def deferrals_in_text(text: str, where: str) -> list[Deferral]:
    """The deferral sentences of one text (code blocks and quotes are not this PR's words)."""
    masked = mask_squashed_merges(mask_code_and_markup(text)) if where != "code" else text
    for start, end in quoted_spans(masked):
        masked = masked[:start] + " " * (end - start) + masked[end:]
    bounds = sentence_bounds(masked)
    edges = [0, *bounds.ends, len(masked)]
    found: list[Deferral] = []
    for begin, finish in pairwise(edges):
        sentence = masked[begin:finish]
        action = _ACTION.search(sentence)
        condition = _CONDITION.search(sentence)
        if action is None or condition is None:
            continue
        waits = [int(m.group("num")) for m in SHORT_FORM.finditer(sentence, condition.start())]
        versions = [m.group(1) for m in _VERSION.finditer(sentence)]
        words = [w for w in dict.fromkeys(m.group(0).lower() for m in _WORD.finditer(sentence)) if w not in _COMMON]
        found.append(
            Deferral(
                evidence=sentence_around(masked, begin + action.start(), begin + action.end(), bounds=bounds),
                where=_where(where),
                waits_for=list(dict.fromkeys(waits)),
                versions=list(dict.fromkeys(versions)),
                words=words[:_MAX_WORDS],
            )
        )
        if len(found) >= _MAX_DEFERRALS:
            break
    return found


_WHERE: dict[str, DeferralWhere] = {
    "title": "title",
    "body": "body",
    "commit": "commit",
    "comment": "comment",
    "review": "review",
    "code": "code",
}


def _where(value: str) -> DeferralWhere:
    return _WHERE.get(value, "body")
