"""Reading the PR's own words: clean the body, find its sections, split and rank sentences.

Everything here returns text taken verbatim from the input (whitespace collapsed), so a
quote in a report is always something the author wrote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(?P<title>.+?)\s*#*\s*$")
_BOLD_HEADING = re.compile(r"^\s*\*\*(?P<title>[^*]{1,60})\*\*:?\s*$")
_CHECKBOX = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s*\[[ xX]\]")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_RULE = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,}|={3,})\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+")
_WS = re.compile(r"\s+")
_TITLE_TAGS = re.compile(r"^\s*(?:\[[^\]]{1,40}\]\s*)+")
_ISSUE_REF = re.compile(r"(?:^|[\s(])#\d+")
_VERSION = re.compile(r"\d+\.\d+")

MOTIVATION_HEADINGS = ("purpose", "motivation", "summary", "description", "why", "background", "problem", "what")
TEST_HEADINGS = ("test plan", "test result", "testing", "tests", "verification", "validation")
SKIP_HEADINGS = ("checklist", "essential elements", "before submitting", "documentation update", "release note")

_SIGNALS = (
    "because",
    "since",
    "root cause",
    "fix",
    "caus",
    "so that",
    "no longer",
    "need",
    "instead",
    "break",
    "crash",
    "fail",
    "regress",
    "error",
    "bug",
    "avoid",
    "prevent",
    "revert",
    "restor",
    "problem",
    "issue",
    "so the",
    "因为",
    "修复",
    "导致",
    "问题",
    "原因",
)


@dataclass
class BodySections:
    motivation: list[str] = field(default_factory=list)  # paragraphs/list items, verbatim
    tests: list[str] = field(default_factory=list)


def collapse(text: str) -> str:
    """One line: every run of whitespace (newlines included) becomes one space."""
    return _WS.sub(" ", text).strip()


def shorten(text: str, limit: int) -> str:
    """At most `limit` characters, cut at a word boundary when there is one, with an ellipsis."""
    text = collapse(text)
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:") + "…"


def clean_title(title: str) -> str:
    """The title on one line, without leading ``[Bugfix][CI]`` tags (kept if nothing else is left)."""
    one_line = collapse(title)
    stripped = _TITLE_TAGS.sub("", one_line).strip()
    return stripped or one_line


def split_body(body: str) -> BodySections:
    """Motivation and test-plan paragraphs of a PR body; templates' boilerplate dropped."""
    sections = BodySections()
    target: list[str] | None = sections.motivation
    paragraph: list[str] = []
    in_fence = False

    def flush() -> None:
        if paragraph and target is not None:
            text = collapse(" ".join(paragraph))
            if text:
                target.append(text)
        paragraph.clear()

    for line in _HTML_COMMENT.sub("", body.replace("\r\n", "\n")).split("\n"):
        if _FENCE.match(line):
            flush()
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        heading = _HEADING.match(line) or _BOLD_HEADING.match(line)
        if heading:
            flush()
            target = _section_for(heading.group("title"), sections)
            continue
        if _CHECKBOX.match(line) or _RULE.match(line) or not line.strip():
            flush()
            continue
        if _BULLET.match(line):
            flush()
            paragraph.append(_BULLET.sub("", line, count=1))
            continue
        paragraph.append(line.strip())
    flush()
    return sections


def _section_for(title: str, sections: BodySections) -> list[str] | None:
    lowered = title.lower()
    if any(word in lowered for word in SKIP_HEADINGS):
        return None
    if any(word in lowered for word in TEST_HEADINGS):
        return sections.tests
    return sections.motivation


def sentences(paragraphs: list[str]) -> list[str]:
    found: list[str] = []
    for paragraph in paragraphs:
        for part in _SENTENCE_END.split(paragraph):
            part = part.strip()
            if len(part) >= 3:
                found.append(part)
    return found


def score_sentence(sentence: str) -> float:
    lowered = sentence.lower()
    score = sum(1.0 for signal in _SIGNALS if signal in lowered)
    score += 1.5 * len(_ISSUE_REF.findall(sentence))
    score += 0.5 * min(2, len(_VERSION.findall(sentence)))
    score += 0.5 if "`" in sentence else 0.0
    if len(sentence) < 25:
        score -= 1.5
    return score


def key_sentences(paragraphs: list[str], count: int, limit: int = 280) -> list[str]:
    """The `count` most telling sentences, in their original order, each at most `limit` chars."""
    candidates = sentences(paragraphs)
    if not candidates or count <= 0:
        return []
    # The opening sentence usually states the change; keep it competitive.
    ranked = sorted(
        range(len(candidates)),
        key=lambda i: (-(score_sentence(candidates[i]) + (0.75 if i == 0 else 0.0)), i),
    )
    chosen = sorted(ranked[:count])
    return [shorten(candidates[i], limit) for i in chosen]


def sentences_mentioning(paragraphs: list[str], needles: list[str], limit: int = 220) -> list[str]:
    """Sentences that name one of `needles` (case-insensitive), verbatim and shortened."""
    wanted = [n.lower() for n in needles if n]
    return [shorten(s, limit) for s in sentences(paragraphs) if any(n in s.lower() for n in wanted)]
