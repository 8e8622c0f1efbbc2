"""Reading the PR's own words: split and rank the sentences of the cleaned body.

Cleaning the body and finding its sections lives in `prdigest.analyzers.pr_text`, which the
verdict analyzer shares.

Everything here returns text taken verbatim from the input (whitespace collapsed), so a
quote in a report is always something the author wrote.
"""

from __future__ import annotations

import re
from functools import lru_cache

from prdigest.analyzers.pr_text import BOLD_HEADING as _BOLD_HEADING
from prdigest.analyzers.pr_text import BULLET as _BULLET
from prdigest.analyzers.pr_text import CHECKBOX as _CHECKBOX
from prdigest.analyzers.pr_text import HEADING as _HEADING
from prdigest.analyzers.pr_text import HTML_COMMENT as _HTML_COMMENT
from prdigest.analyzers.pr_text import BodySections, section_for, split_body, strip_emphasis
from prdigest.analyzers.pr_text import collapse as collapse
from prdigest.analyzers.pr_text import shorten as shorten

# A sentence that says what the PR does, in the author's words.
_THIS_PR = re.compile(
    r"\bthis (?:pr|pull request|change|patch|commit|diff)\s+(?:also\s+|now\s+|then\s+)?(?!is\b|was\b|has\b)[a-z-]+s\b",
    re.IGNORECASE,
)
_ACTION_OPENING = re.compile(
    r"^(?:this pr |we )?(?:add|adds|added|fix|fixes|fixed|support|supports|implement|implements|introduce|"
    r"introduces|remove|removes|replace|replaces|refactor|refactors|enable|enables|disable|disables|make|makes|"
    r"use|uses|move|moves|update|updates|bump|bumps|avoid|avoids|allow|allows|expose|exposes|split|splits|port|"
    r"ports|optimi[sz]e|optimi[sz]es|improve|improves|reduce|reduces|rename|renames|restore|restores|skip|skips|"
    r"stop|stops|switch|switches|drop|drops|clean|cleans|extend|extends|upgrade|upgrades|migrate|migrates|"
    r"consolidate|consolidates|handle|handles|guard|guards|correct|corrects|simplify|simplifies|unify|unifies|"
    r"integrate|integrates|complete|completes|trim|trims|stabili[sz]e|stabili[sz]es|reject|rejects|release|"
    r"releases|collect|collects|document|documents|include|includes|speed|speeds|accelerate|accelerates|"
    r"relax|relaxes|pin|pins|cap|caps|set|sets|change|changes|let|lets|teach|teaches|harden|hardens)\b",
    re.IGNORECASE,
)
# A caveat or an aside: true of the PR, but no summary of it.
_CAVEAT = re.compile(
    r"^\W*(?:note|nb|n\.b\.|caveat|however|but|unfortunately|warning|disclaimer|todo|fixme|known\s+(?:issue|limitation)s?|"
    r"limitations?|also|p\.?s\.?|btw|side\s+note|this\s+(?:pr|change|patch)\s+(?:does\s+not|doesn't|won't|will\s+not|"
    r"is\s+not|isn't|should\s+not|shouldn't))\b",
    re.IGNORECASE,
)
_REFERENCE_ONLY = re.compile(r"^(?:reverts?|closes?|fixes|resolves?|see|ref|refs)\b[\s:]*\S*#\d+\S*\s*\.?$", re.I)
# A code span of the narrator's own text (`name`): one pattern for every reader of it.
CODE_SPAN = re.compile(r"`[^`]+`")
_SENTENCE_END = re.compile(r"(?:(?<=[.!?。！？])|(?<=[.!?][)\"'”]))\s+")
_BOLD_ONLY = re.compile(r"^\s*\*\*[^*]+\*\*:?\s*$")
# Commit messages GitHub writes itself (web editor, suggestions, merges): they say no why.
_GENERATED_SUBJECT = re.compile(
    r"^\W*(?:apply\s+suggestions?\s+from\s+code\s+review|(?:update|create|delete)\s+[\w./-]*[./][\w./-]*|"
    r"rename\s+\S+\s+to\s+\S+|merge\s+(?:branch|remote-tracking\s+branch|pull\s+request)\b.*)\W*$",
    re.IGNORECASE,
)
_ABBREVIATION = re.compile(r"(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp|Fig|No)\.$", re.IGNORECASE)
_TITLE_TAGS = re.compile(r"^\s*(?:\[[^\]]{1,40}\]\s*)+")
_ISSUE_REF = re.compile(r"(?:^|[\s(])#\d+")
_VERSION = re.compile(r"\d+\.\d+")
_INLINE_CODE = re.compile(r"(`+)[^`]*?\1")
_ASIDE = re.compile(r"^\([^()]*\)[.!?]?$")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")
_PUNCTUATION = ".,;:!?()[]\"'“”‘’…"
_CJK = re.compile(r"[\u4e00-\u9fff]")
MIN_WORDS = 3
MIN_CJK = 4

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


def clean_title(title: str) -> str:
    """The title on one line, without leading ``[Bugfix][CI]`` tags (kept if nothing else is left)."""
    one_line = collapse(title)
    stripped = _TITLE_TAGS.sub("", one_line).strip()
    return stripped or one_line


def sentences(paragraphs: list[str]) -> list[str]:
    found: list[str] = []
    for paragraph in paragraphs:
        pending = ""
        opened = len(found)
        for part in _split_outside_code(paragraph):
            part = f"{pending} {part}".strip() if pending else part.strip()
            # "e.g. x" is not the end of a sentence.
            if _ABBREVIATION.search(part):
                pending = part
                continue
            pending = ""
            # "H100. (does not impact other archs)": an aside belongs to the sentence before it.
            if _ASIDE.match(part) and len(found) > opened:
                found[-1] = f"{found[-1]} {part}"
            elif len(part) >= 3:
                found.append(part)
        if len(pending) >= 3:
            found.append(pending)
    return found


def _split_outside_code(paragraph: str) -> list[str]:
    """The paragraph cut at sentence ends, never inside inline code (`a ? b : c`)."""
    pieces: list[str] = []
    current = ""
    last = 0
    for code in _INLINE_CODE.finditer(paragraph):
        prose = _SENTENCE_END.split(paragraph[last : code.start()])
        prose[0] = current + prose[0]
        pieces.extend(prose[:-1])
        current = prose[-1] + code.group(0)
        last = code.end()
    prose = _SENTENCE_END.split(paragraph[last:])
    prose[0] = current + prose[0]
    pieces.extend(prose)
    return pieces


def has_words(sentence: str, least: int = MIN_WORDS) -> bool:
    """Whether a sentence says something in words, not only references, paths or numbers."""
    words = [t for t in _INLINE_CODE.sub(" ", sentence).split() if _WORD.fullmatch(t.strip(_PUNCTUATION))]
    return len(words) >= least or len(_CJK.findall(sentence)) >= MIN_CJK


def with_continuations(found: list[str]) -> list[str]:
    """Sentences where one ending in a colon ("… by:") carries the item it introduces, so
    a quote never stops at the colon."""
    merged: list[str] = []
    index = 0
    while index < len(found):
        sentence = found[index]
        follower = found[index + 1] if index + 1 < len(found) else ""
        introduces = sentence.rstrip().endswith((":", "："))
        if introduces and has_words(follower, least=2) and not follower.rstrip().endswith((":", "：")):
            merged.append(f"{sentence} {follower}")
            index += 2
            continue
        merged.append(sentence)
        index += 1
    return merged


def score_sentence(sentence: str) -> float:
    lowered = sentence.lower()
    score = sum(1.0 for signal in _SIGNALS if signal in lowered)
    score += 1.5 * len(_ISSUE_REF.findall(sentence))
    score += 0.5 * min(2, len(_VERSION.findall(sentence)))
    score += 0.5 if "`" in sentence else 0.0
    if len(sentence) < 25:
        score -= 1.5
    if sentence.rstrip().endswith((":", "：", "…")):
        score -= 2.0  # it introduces what follows, or was cut: a poor quote on its own
    return score


def key_sentences(paragraphs: list[str], count: int, limit: int = 280) -> list[str]:
    """The `count` most telling sentences, in their original order, each at most `limit` chars."""
    seen: set[str] = set()
    candidates: list[str] = []
    for sentence in with_continuations(sentences(paragraphs)):
        # A body made of squashed commit messages may say the same thing twice: quoted once.
        key = " ".join(sentence.split()).casefold()
        if has_words(sentence) and key not in seen:
            seen.add(key)
            candidates.append(sentence)
    if not candidates or count <= 0:
        return []
    # The opening sentence usually states the change; keep it competitive.
    ranked = sorted(
        range(len(candidates)),
        key=lambda i: (-(score_sentence(candidates[i]) + (1.5 if i == 0 else 0.0)), i),
    )
    chosen = sorted(ranked[:count])
    return [shorten(candidates[i], limit) for i in chosen]


def sentences_mentioning(paragraphs: list[str], needles: list[str], limit: int = 220) -> list[str]:
    """Sentences that name one of `needles` (case-insensitive), verbatim and shortened."""
    wanted = [n.lower() for n in needles if n]
    return [shorten(s, limit) for s in sentences(paragraphs) if any(n in s.lower() for n in wanted)]


def body_sections(body: str, repository: str | None) -> BodySections:
    """`split_body`, read once per body: a PR is narrated in every language and length, and
    each narration reads its body several times. The caller gets its own lists."""
    read = _split_body(body, repository)
    return BodySections(list(read.motivation), list(read.tests), list(read.summary), list(read.opening))


@lru_cache(maxsize=16)
def _split_body(body: str, repository: str | None) -> BodySections:
    return split_body(body, repository)


@lru_cache(maxsize=64)  # a pure function of strings, asked for per language and length
def summary_sentence(body: str, limit: int = 220, repository: str | None = None) -> str | None:
    """The author's own one-line statement of what the PR does, if the body has one.

    Only the paragraphs that speak for the whole change are read (before any heading or under
    a Summary/Purpose/Description heading, never a subsection's), template requests and
    placeholders aside. In order: a sentence naming "this PR"; the first sentence under a
    Summary/Purpose heading; the opening's first sentence when it opens with an action
    ("Fixes …", "Add …"). A bare reference ("Reverts #12") says less than the title, and a
    caveat ("Note: …", "However …") is no summary: neither is taken.
    """
    sections = _split_body(body, repository)  # only read here
    every = with_continuations(sentences(sections.opening))
    chosen = next((s for s in every if _THIS_PR.search(s) and _usable_summary(s)), None)
    if chosen is None:
        summary = with_continuations(sentences(sections.summary))
        chosen = summary[0] if summary and _usable_summary(summary[0]) else None
    if (
        chosen is None
        and every
        and _usable_summary(every[0])
        and _ACTION_OPENING.match(every[0])
        and not _one_item_of_several(body, every[0])
    ):
        chosen = every[0]
    if chosen is None:
        return None
    return shorten(chosen.rstrip(" :："), limit)


def _one_item_of_several(body: str, sentence: str) -> bool:
    """Whether `sentence` opens one item of a list of several (a squash body's first commit,
    one bullet of a changelog): it speaks for a part of the change, not for the whole."""
    items = [collapse(_BULLET.sub("", line)) for line in body.splitlines() if _BULLET.match(line)]
    head = collapse(sentence)[:40]
    return len(items) > 1 and any(item.startswith(head) for item in items)


def _usable_summary(sentence: str) -> bool:
    return (
        len(sentence) >= 25
        and not _CAVEAT.match(sentence)
        and not _REFERENCE_ONLY.match(sentence)
        and "http" not in sentence[:12]
        and has_words(sentence)
        and not is_generated_subject(sentence)
    )


def repeats_title(sentence: str, title: str) -> bool:
    """Whether a body sentence only says the title again (a squash message's first bullet is
    often the title): quoting it tells the reader nothing the header did not."""

    def plain(text: str) -> str:
        return " ".join(text.casefold().split()).strip(" .:：!。")

    return plain(sentence) == plain(clean_title(title))


def covered_by(sentence: str, lead: str | None) -> bool:
    """Whether `lead` (a shortened quote) already says `sentence`."""
    if not lead:
        return False
    core = sentence.rstrip(" :：")
    return shorten(core, len(lead) + 1) == lead or core in lead.rstrip("…")


def is_generated_subject(text: str) -> bool:
    """A commit message GitHub wrote itself ("Update src/app.py", "Apply suggestions from code
    review", "Merge branch 'main' into x"): no word of the author's."""
    return _GENERATED_SUBJECT.match(text) is not None


def commit_points(messages: list[str], title: str) -> list[str]:
    """What the commits say beyond the title: the "* …" bullets of squash commits (wrapped
    lines joined, boilerplate sections and bare "**Label**" bullets skipped) and the subjects
    of other commits, verbatim, without trailers or merges."""
    seen = {collapse(title).lower()}
    points: list[str] = []

    def add(point: str) -> None:
        point = collapse(strip_emphasis(point))
        lowered = point.lower()
        if len(point) < 4 or lowered in seen or lowered.startswith(("signed-off-by", "co-authored-by")):
            return
        if is_generated_subject(point):
            return
        seen.add(lowered)
        points.append(point)

    for message in messages:
        lines = _HTML_COMMENT.sub("", message.replace("\r\n", "\n")).split("\n")
        subject = re.sub(r"\s*\(#\d+\)$", "", collapse(lines[0])) if lines else ""
        if subject and not subject.lower().startswith("merge"):
            add(subject)
        bullet: list[str] = []
        skipping = False
        for line in [*lines[1:], ""]:
            heading = _HEADING.match(line) or _BOLD_HEADING.match(line)
            if heading and not _BULLET.match(line):
                skipping = section_for(heading.group("title"), BodySections()) is None
            starts = _BULLET.match(line) is not None or heading is not None
            if (starts or not line.strip()) and bullet:
                text = " ".join(bullet)
                if not _BOLD_ONLY.match(text):
                    add(text)
                bullet = []
            if skipping or heading or _CHECKBOX.match(line):
                continue
            if _BULLET.match(line):
                bullet = [_BULLET.sub("", line, count=1)]
            elif bullet and line.strip():
                bullet.append(line.strip())
    return points
