"""Low-level text handling for reference extraction: masking, matching, relation words.

Kept apart from `references` so the patterns can be read (and tested) on their own.
Everything here is a pure function of its input text; nothing raises on odd input.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from prdigest.models.facts import Relation

# --- masking -----------------------------------------------------------------------------
# Masked regions are replaced by spaces (newlines kept) so offsets and sentence
# boundaries of the remaining text stay where they were.

_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})[^\n]*\n.*?(?:^[ \t]{0,3}\1[ \t]*$|\Z)", re.M | re.S)
_INLINE_CODE = re.compile(r"(`+)(?!`)[^\n]+?(?<!`)\1(?!`)")
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_HTML_ENTITY = re.compile(r"&#(?:\d{1,8}|[xX][0-9a-fA-F]{1,8});")
_ANY_URL = re.compile(r"https?://[^\s<>()\[\]\"']+")


def _blank(match: re.Match[str]) -> str:
    return "".join("\n" if ch == "\n" else " " for ch in match.group(0))


def mask_code_and_markup(text: str) -> str:
    """Blank out code blocks, inline code, HTML comments and numeric entities."""
    for pattern in (_FENCE, _HTML_COMMENT, _INLINE_CODE, _HTML_ENTITY):
        text = pattern.sub(_blank, text)
    return text


# "Merge pull request #6 from someone/branch" quoted in a body (a squash of a branch that
# merged its fork's history): #6 is a PR of wherever that merge happened, and the line says
# nothing of what this PR does. Blanked in bodies; a commit's own subject is read apart.
SQUASHED_MERGE = re.compile(r"Merge pull request #\d{1,9} from \S+")


def mask_squashed_merges(text: str) -> str:
    """Blank out quoted GitHub merge subjects (squashed fork history), keeping offsets."""
    return SQUASHED_MERGE.sub(_blank, text)


# Quoted text: Markdown and HTML blockquotes, and the release-notes / changelog / commits
# sections bots append (dependabot, renovate). What it says was written elsewhere.
_MD_QUOTE = re.compile(r"^[ \t]{0,3}>.*$", re.M)
_HTML_QUOTE = re.compile(r"<blockquote\b.*?(?:</blockquote>|\Z)", re.S | re.I)
_NOTES_SECTION = re.compile(
    r"^(?:#{1,6}[ \t]*|<summary>[ \t]*|<b>[ \t]*|\*\*)?(?:release[ \t]+notes|changelog|commits)\b.*?"
    r"(?=^---[ \t]*$|^#{1,6}[ \t]*configuration\b|\Z)",
    re.S | re.M | re.I,
)
# A repository named by a github.com URL (release pages, compare views, commits).
_REPO_URL = re.compile(
    r"https?://(?:www\.)?github\.com/(?P<owner>[A-Za-z0-9][A-Za-z0-9-]{0,38})/(?P<name>[A-Za-z0-9._-]{1,100})"
)
_NOT_REPOS = frozenset({"orgs", "apps", "sponsors", "marketplace", "settings", "users", "features", "notifications"})


def quoted_spans(text: str) -> list[tuple[int, int]]:
    """Spans of text quoted from elsewhere (blockquotes, bots' release notes), in order."""
    spans = [m.span() for pattern in (_MD_QUOTE, _HTML_QUOTE) for m in pattern.finditer(text)]
    spans.extend(m.span() for m in _NOTES_SECTION.finditer(text) if m.end() > m.start())
    return sorted(spans)


def upstream_repository(text: str, spans: list[tuple[int, int]], own: str) -> str | None:
    """The one other repository the quoted text comes from, if the text names exactly one.

    Looked for in the quotes and just before each (dependabot's "Sourced from <a href=
    github.com/OWNER/NAME/releases>"); the bots' own repositories do not count."""
    names: dict[str, str] = {}
    for start, end in spans:
        for match in _REPO_URL.finditer(text, max(0, start - 400), end):
            owner, name = match.group("owner"), match.group("name").removesuffix(".git")
            if owner.lower() in _NOT_REPOS or owner.lower() in {"dependabot", "renovatebot"}:
                continue
            full = f"{owner}/{name}"
            if full.lower() != own.lower():
                names.setdefault(full.lower(), full)
    return next(iter(names.values())) if len(names) == 1 else None


def mask_for_evidence(text: str) -> str:
    """Blank out only what a reader never sees as prose (code blocks, HTML comments).

    Inline code and entities stay verbatim: they are part of the sentence quoted as evidence
    ("because `max_batch` was unbounded"), even though references inside them do not count.
    The blanked regions are the same as `mask_code_and_markup`'s, so offsets agree."""
    for pattern in (_FENCE, _HTML_COMMENT):
        text = pattern.sub(_blank, text)
    return text


# --- reference forms -------------------------------------------------------------------

_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})"
_REPO = r"[A-Za-z0-9._-]{1,100}"
# Only github.com URLs name PRs/issues unambiguously; the kind comes from the path.
GITHUB_URL = re.compile(
    rf"https?://(?:www\.)?github\.com/(?P<owner>{_NAME})/(?P<name>{_REPO})/"
    r"(?P<kind>pull|pulls|issues)/(?P<num>\d{1,9})(?![\d])"
)
CROSS_REPO = re.compile(rf"(?<![\w/.#-])(?P<owner>{_NAME})/(?P<name>{_REPO})#(?P<num>\d{{1,9}})(?![\w\u2026-])(?!\.\d)")
# "fmtlib#3403", "tokio-rs#2741": an owner or a repository name alone before the number (no
# host links it). Read as the PR's own repository only when the word is its owner or its name.
OWNER_FORM = re.compile(rf"(?<![\w/.#-])(?P<owner>{_NAME})#(?P<num>\d{{1,9}})(?![\w\u2026-])(?!\.\d)")
# "Fix PR#1006", "issue#1275": the kind word glued to the number names the PR's own repository
# (GitHub reads `word#N` as an owner's repository, but no one writes an owner called "issue").
KIND_WORD_FORM = re.compile(
    r"(?<![\w/.#-])(?P<word>PRs?|pull|issues?|bug|ticket)#(?P<num>\d{1,9})(?![\w\u2026-])(?!\.\d)", re.I
)
GH_FORM = re.compile(r"(?<![\w/#-])GH-(?P<num>\d{1,9})(?![\w-])(?!\.\d)", re.I)
# `&` and `/` before `#` mean an entity or a URL fragment, not a reference.
# A number an ellipsis follows was cut short ("Explain X vs Y (#1…", a truncated subject).
SHORT_FORM = re.compile(r"(?<![\w&/#-])#(?P<num>\d{1,9})(?![\w\u2026-])(?!\.\d)")
# "Step #2", "option #1": ordinal use of `#`, not a reference.
_ORDINAL_WORDS = re.compile(
    r"\b(?:step|option|item|point|phase|round|case|approach|idea|reason|note|question|"
    r"attempt|try|variant|method|solution|rule|line|row|col|column|rank|gpu|node|worker|no\.?|gap|part|stage|"
    # CI run numbers: "Nightly run #353", "build #12", "pipeline #9".
    r"runs?|builds?|jobs?|workflows?|pipelines?)\s*$",
    re.I,
)
# "PR #1 of the suggested sequence", "#2 of 3", "#3/5": a position in a series, not a reference.
_ORDINAL_AFTER = re.compile(
    r"\s*(?:/\s*\d{1,3}\b|of\s+(?:\d{1,3}\b|(?:the|a|an|this|that|our|my|its|their)\s+(?:[\w-]+\s+){0,3}"
    r"(?:sequence|series|stack|plan|list|set|steps?|parts?|phases?|stages?|roadmap|chain|prs|pull requests|"
    r"patch(?:es|set)?|changes|rollout|migration|refactor)\b))",
    re.I,
)
_MAX_ORDINAL = 100  # "#4321 of the series" is still a PR of that series: positions are small
# A Markdown link "[text](url)": a `#N` in its text names whatever the URL points at.
_MARKDOWN_LINK = re.compile(r"\[(?P<text>[^\[\]\n]{1,300})\]\((?P<url>[^()\s]{1,2000})(?:\s+\"[^\"\n]*\")?\)")
# Where a link's URL names a pull request or issue (absolute or relative): its text may cite it.
_PR_OR_ISSUE_PATH = re.compile(r"/(?:pull|pulls|issues)/\d+(?:[/?#]|$)")

REVERTS_COMMIT = re.compile(r"\bThis reverts commit (?P<sha>[0-9a-fA-F]{7,40})\b")
# "revert commit c40c9fe", "Reverts 1a2b3c4", "reverting 1a2b3c4d5e": a SHA with at least one
# digit (so "revert facade" is no commit), 7 to 40 lowercase hex characters.
REVERTS_COMMIT_PROSE = re.compile(
    r"\brevert(?:s|ing|ed)?\s+(?:(?:the\s+)?commits?\s+)?(?P<sha>(?=[0-9a-f]*\d)[0-9a-f]{7,40})\b", re.I
)
# A TODO / FIXME line naming a PR or issue: "# TODO(#61): drop the shim", "// FIXME: see #12".
TODO_LINE = re.compile(r"\b(?:TODO|FIXME|XXX)\b[^\n]*#\d")
REVERT_TITLE = re.compile(r'^\s*Revert\s+"(?P<inner>.*)"\s*$', re.S)
REAPPLY_TITLE = re.compile(r'^\s*Rea(?:pply|land)\s+"(?P<inner>.*)"\s*$', re.S | re.I)

MAX_NUMBER = 999_999_999


@dataclass(frozen=True)
class RawRef:
    """One reference as found in a text, before deduplication."""

    owner_name: str | None  # None: the PR's own repository
    number: int
    target_kind: str  # pr | issue | unknown
    start: int
    end: int


def _non_reference_links(text: str) -> tuple[list[tuple[int, int]], set[str]]:
    """Texts of Markdown links to something other than a PR or issue (a CI run, a doc page).

    Returns their spans and the ``#N`` numbers they show: the same number elsewhere in the
    text ("| #4214 vs median |" next to "[#4214](.../actions/runs/...)") names the same thing.
    """
    spans: list[tuple[int, int]] = []
    numbers: set[str] = set()
    for match in _MARKDOWN_LINK.finditer(text):
        if _PR_OR_ISSUE_PATH.search(match.group("url")):
            continue
        spans.append(match.span("text"))
        numbers.update(m.group("num") for m in SHORT_FORM.finditer(match.group("text")))
    return spans, numbers


def find_raw_refs(text: str, own_repository: str | None = None) -> list[RawRef]:
    """Every PR/issue reference in already-masked text, in order of position.

    With `own_repository`, "OWNER#N" and "NAME#N" of that repository count as its own."""
    found: list[RawRef] = []
    # One flag per character: already part of a URL or an earlier reference.
    occupied = bytearray(len(text))
    link_spans, link_numbers = _non_reference_links(text)

    def free(start: int, end: int) -> bool:
        return not any(occupied[start:end])

    def take(start: int, end: int) -> None:
        occupied[start:end] = b"\x01" * (end - start)

    for start, end in link_spans:
        occupied[start:end] = b"\x01" * (end - start)
    for match in GITHUB_URL.finditer(text):
        if not free(match.start(), match.end()):
            continue  # a PR URL written as the text of a link to something else
        kind = "issue" if match.group("kind") == "issues" else "pr"
        owner_name = f"{match.group('owner')}/{match.group('name')}"
        _add(found, owner_name, match.group("num"), kind, match.start(), match.end())
        take(match.start(), match.end())
    # Any other URL may carry `#123` fragments or `/123` paths: never references.
    for match in _ANY_URL.finditer(text):
        if free(match.start(), match.end()):
            take(match.start(), match.end())
    for match in CROSS_REPO.finditer(text):
        if free(match.start(), match.end()):
            owner_name = f"{match.group('owner')}/{match.group('name')}"
            _add(found, owner_name, match.group("num"), "unknown", match.start(), match.end())
            take(match.start(), match.end())
    own_words = {part.lower() for part in own_repository.split("/")} if own_repository else set()
    for match in OWNER_FORM.finditer(text):
        if match.group("owner").lower() in own_words and free(match.start(), match.end()):
            _add(found, None, match.group("num"), "unknown", match.start(), match.end())
            take(match.start(), match.end())
    for match in KIND_WORD_FORM.finditer(text):
        if free(match.start(), match.end()):
            kind = "pr" if match.group("word").lower().startswith(("pr", "pull")) else "issue"
            _add(found, None, match.group("num"), kind, match.start(), match.end())
            take(match.start(), match.end())
    for pattern in (GH_FORM, SHORT_FORM):
        for match in pattern.finditer(text):
            if not free(match.start(), match.end()):
                continue
            if _ORDINAL_WORDS.search(text[max(0, match.start() - 20) : match.start()]):
                continue
            if int(match.group("num")) < _MAX_ORDINAL and _ORDINAL_AFTER.match(text, match.end()):
                continue
            if pattern is SHORT_FORM and match.group("num") in link_numbers:
                continue
            _add(found, None, match.group("num"), "unknown", match.start(), match.end())
            take(match.start(), match.end())
    found.sort(key=lambda ref: ref.start)
    return found


def _add(found: list[RawRef], owner_name: str | None, digits: str, kind: str, start: int, end: int) -> None:
    number = int(digits)
    if 1 <= number <= MAX_NUMBER:
        found.append(RawRef(owner_name, number, kind, start, end))


# --- relations ---------------------------------------------------------------------------
# Each cue is read in the words just before a reference (same clause). When several cues
# occur, the one closest to the reference wins, so "fixed by #3" beats an earlier "reverts".

# A cue that must stand right before the number (a cue is searched only up to the reference,
# so the end of the searched text is the reference): "Solves #1234", "continue PR #414".
_ADJACENT = r"(?=\s*(?:(?:the\s+)?(?:pr|pull request|issue|changes?\s+(?:of|from|in))\s*)?:?\s*$)"

_CUES: tuple[tuple[Relation, str], ...] = (
    ("reverted-by", r"\b(?:reverted|rolled back) (?:by|in|with)\b|被回退|回退于"),
    ("superseded-by", r"\b(?:superseded|replaced|obsoleted) by\b|被.{0,6}取代"),
    (
        "mentions",
        r"\b(?:fixed|resolved|addressed|closed) (?:by|in)\b|\bduplicate of\b|\bsee(?: also)?\b|\bcf\.|"
        r"\brelated(?: to)?\b|\bsimilar to\b|\bsame as\b|\bper\b|参见|详见|"
        # "guards added in #1 / relanded in #2": a participle telling where something else was
        # restored; this PR would say "relands #2".
        r"\b(?:restored|re-?landed|re-?applied|re-?introduced|recreated|brought back) (?:in|by|with|via)\b|"
        # "Partial fix for #12", "partially resolves #12": the issue stays open, so no "fixes";
        # longer than the "fix for" inside it, so it wins at the same end.
        r"\b(?:partial(?:ly)?|partly)\s+(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\b"
        r"(?:\s+(?:issue|bug|pr|for))?\s*:?|部分(?:修复|解决)",
    ),
    ("reverts", r"\brevert(?:s|ing|ed)?\b|\broll(?:s|ing)? back\b|\bback(?:s|ing)? out\b|回退|撤销"),
    (
        "restores",
        r"\brestor(?:e|es|ed|ing)\b|\bre-?land(?:s|ed|ing)?\b|\bre-?appl(?:y|ies|ied|ying)\b|"
        r"\bbring(?:s|ing)? back\b|\bre-?introduc(?:e|es|ed|ing)\b|\brecreat(?:e|es|ed|ing)\b|恢复|重新引入|"
        # "Cleanly apply #499": only a change can be applied, and right before its number.
        rf"\b(?:cleanly\s+)?appl(?:y|ies|ying)\b{_ADJACENT}",
    ),
    (
        "fixes",
        r"\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\b(?:\s+(?:issue|bug|pr|for))?\s*:?|修复|解决|关闭|"
        # "Solves #1234", "Implements #184", "as reported in #1046": this PR's act on an issue,
        # the verb right before the number.
        rf"\b(?:solve[sd]?|implement(?:s|ed)?|address(?:es|ed)?)\b(?:\s+(?:issue|bug|request))?{_ADJACENT}|"
        r"\breported (?:in|at|by)\b",
    ),
    # "Fixing #12": a gerund states this PR's act only where it opens the clause or follows
    # this PR as the subject ("This PR is fixing #12"); "while fixing #12 we saw …" does not.
    ("fixes", r"\b(?:fix|resolv)ing\b(?:\s+(?:issue|bug|pr))?\s*:?"),
    (
        "root-cause-in",
        r"\broot[- ]caused?\b|\bcaused by\b|\bregress(?:ion|ed)? (?:from|of|in|by|since|caused by)\b|"
        r"\bintroduced (?:in|by)\b|\bbroken (?:by|in|since)\b|\bbroke in\b|根因|引入",
    ),
    (
        "follow-up-to",
        r"\bfollow[- ]?ups? (?:to|of|on|for)\b|\bfollow[- ]?ups?\b|\bcontinuation of\b|"
        r"\bbuilds? (?:up)?on\b|\bextends\b|后续|延续|"
        # "Was forgotten in #14359", "the part missed in #12": this PR adds what that one left out.
        r"\b(?:forgot(?:ten)?|missed|left out|omitted) (?:in|from|by)\b|遗漏|"
        # "Accidentally removed in #887": this PR mends what that one did by mistake.
        r"\b(?:accidentally|mistakenly|inadvertently|wrongly|unintentionally) (?:\w+ ){0,1}(?:in|by)\b|"
        rf"\bcontinu(?:e|es|ing)\b{_ADJACENT}",
    ),
    # "Replace set literal with set() #299": the number is not what is replaced; only "replaces
    # #12" (the number the verb's object) supersedes.
    ("supersedes", rf"(?:\bsupersed(?:e|es|ing)\b|\breplac(?:e|es|ing)\b|\bobsoletes\b){_ADJACENT}|取代"),
    ("alternative-to", r"\balternative (?:to|of|for)\b|\binstead of\b|替代"),
    (
        # "TODO(#61)", "tracked in #61", "left for a follow-up in #61": the rest is done later, there.
        "followed-up-by",
        r"\b(?:TODO|FIXME|XXX)\s*\(\s*|\btracked (?:in|by|at)\b|\bdeferred (?:to|until)\b|\bleft (?:for|to)\b|"
        r"\b(?:will|to) (?:be )?(?:followed up|handled|addressed|done|fixed|cleaned up|removed|relaxed)"
        r" (?:in|by|with)\b|"
        r"\bfollow[- ]?up (?:pr |issue )?(?:in|at)\b|\bin a follow[- ]?up(?: pr)?\b|后续在",
    ),
    (
        "prerequisite-for",
        r"\bprerequisite (?:for|of|to)\b|\bunblocks?\b|\bblocks\b|\b(?:needed|required) (?:for|by)\b|"
        r"\bprepar(?:es|ing|ation) for\b|\bin preparation for\b|的前置|前置于",
    ),
    (
        "depends-on",
        r"\bdepends? (?:up)?on\b|\brequires\b|\bblocked (?:by|on)\b|\bstacked on\b|"
        r"\bneeds? .{0,20}\bfirst\b|依赖于?",
    ),
)
_CUE_PATTERNS = tuple((relation, re.compile(cue, re.I)) for relation, cue in _CUES)

# Dedup strength: the more specific statement wins over the vaguer one.
RELATION_STRENGTH: dict[Relation, int] = {
    "reverts": 10,
    "restores": 9,
    "fixes": 8,
    "root-cause-in": 7,
    "reverted-by": 6,
    "supersedes": 5,
    "superseded-by": 5,
    "depends-on": 4,
    "follow-up-to": 3,
    "followed-up-by": 3,
    "prerequisite-for": 4,
    "alternative-to": 2,
    "mentions": 0,
}

# Only separators between two references: the second inherits the first's relation
# ("Fixes #1, #2 and #3").
LIST_GLUE = re.compile(r"^[\s,;/&+]*(?:(?:and|or|und|et|和|及|与|、)[\s,]*)?$", re.I)
# "#A reverted #B", "#A (reverted in #B)", "#A, which was replaced by #B": a past-tense verb
# or participle right after A tells A's relation to B, not ours. Root-cause statements
# ("#A, a crash introduced in #B") are kept: the cause of what this PR fixes concerns it.
_THIRD_PARTY_VERB = re.compile(
    r"^\s*(?:(?:\w+\s+){0,2}(?:introduced|broke|caused)|[(,\u2013\u2014-]?\s*(?:\w+\s+){0,3}"
    r"(?:reverted|fixed|restored|closed|resolved|replaced|superseded|re-?landed|added|removed|rolled back|obsoleted)"
    r"(?:\s+(?:by|in|with|via|from|on))?)\s*$",
    re.I,
)
_CUE_WINDOW = 80  # a cue further than this from the reference is about something else
_CLAUSE_BREAK = re.compile(r"[.!?;:\n。！？；]\s|\n|[。！？；]")
_SUBJECT_LOOKBACK = 200  # how far back the start of a clause is looked for
# What may stand before a reference that is the subject of its clause: "#103 was …",
# "PR #103, which …", "Earlier, the PR #103 …". Anything else ("Re-lands #103") makes the
# reference an object of a verb whose subject is this PR.
_SUBJECT_LEAD = re.compile(
    r"[\s(\[*_>-]*(?:[A-Za-z]+,\s*)?(?:(?:the|pr|pull request|issue|commit|change|patch)\s+)*", re.I
)
# Words that make this PR the subject again after another reference opened the clause.
_SELF_SUBJECT = r"(?:this(?:\s+(?:pr|pull request|change|patch|commit|one))?|we|here)"
_GERUND = re.compile(r"(?:fix|resolv)ing\b", re.I)
# What may stand before a gerund that is this PR's act: nothing but a list marker, or this
# PR as the subject of a progressive ("This PR is fixing", "We are resolving").
_GERUND_LEAD = re.compile(
    r"[\s(\[*_>-]*(?:(?:this(?:\s+(?:pr|pull request|change|patch|commit))?|it)\s+is\s+|we\s+are\s+)?"
    r"(?:(?:also|now|just)\s+)?",
    re.I,
)
_SELF_WORDS = re.compile(rf"\b{_SELF_SUBJECT}\b|本\s*PR|本次|我们", re.I)
# A cue in the past tense or the passive ("was reverted in", "fixed by", "被回退") states what
# happened to the clause's subject.
_PAST_OR_PASSIVE = re.compile(r"\b\w+(?:ed|en)\b|\bbroke\b|被|于", re.I)


def clause_start(text: str, pos: int, lookback: int = _SUBJECT_LOOKBACK) -> int | None:
    """Where the clause holding `pos` starts; None when no break is found within `lookback`."""
    floor = max(0, pos - lookback)
    start: int | None = 0 if floor == 0 else None
    for match in _CLAUSE_BREAK.finditer(text, floor, pos):
        start = match.end()
    return start


def opens_clause(text: str, ref: RawRef) -> bool:
    """Whether `ref` is the subject its clause opens with ("#103 was reverted in #105")."""
    start = clause_start(text, ref.start)
    return start is not None and _SUBJECT_LEAD.fullmatch(text, start, ref.start) is not None


def clause_subject(text: str, refs: list[RawRef], index: int) -> RawRef | None:
    """The earlier reference that opens the clause of ``refs[index]`` as its subject, if any."""
    start = clause_start(text, refs[index].start)
    if start is None:
        return None
    first: RawRef | None = None
    for earlier in reversed(refs[:index]):
        if earlier.start < start:
            break
        first = earlier
    if first is None or _SUBJECT_LEAD.fullmatch(text, start, first.start) is None:
        return None
    return first


_MAX_LABEL_WORDS = 3


def _is_label(text: str, colon: int, ref_start: int) -> bool:
    """Whether the colon ends a short line-opening label ("Fixes:", "Related issue:") that
    `ref` is the value of, rather than a sentence ("We fixed the cache earlier: #4 …")."""
    if text[colon + 1 : ref_start].strip():
        return False
    label = text[text.rfind("\n", 0, colon) + 1 : colon].strip(" \t*-")
    return 0 < len(label.split()) <= _MAX_LABEL_WORDS


def relation_before(
    text: str,
    ref: RawRef,
    previous: RawRef | None,
    previous_relation: Relation,
    subject: RawRef | None = None,
) -> Relation:
    """The relation a clause states for `ref`, from the words just before it.

    `subject` is another reference opening the clause (see `clause_subject`): a past-tense or
    passive cue then tells what happened between it and `ref` ("#103 was reverted in #105"),
    which is no relation of this PR's."""
    clause_begin = 0
    for match in _CLAUSE_BREAK.finditer(text, max(0, ref.start - 120), ref.start):
        if text[match.start()] == ":" and _is_label(text, match.start(), ref.start):
            continue  # "Fixes: #12": a label and the value right after it are one clause
        clause_begin = match.end()
    clause_floor = clause_begin
    previous_end = previous.end if previous is not None else 0
    clause_begin = max(clause_begin, ref.start - _CUE_WINDOW)
    if previous is not None and previous.end > clause_begin:
        between = text[previous.end : ref.start]
        if LIST_GLUE.match(between):
            return previous_relation
        if _THIRD_PARTY_VERB.match(between):
            return "mentions"
        clause_begin = previous.end
    best: tuple[int, int, Relation, int] | None = None
    for relation, pattern in _CUE_PATTERNS:
        for match in pattern.finditer(text, clause_begin, ref.start):
            key = (match.end(), match.end() - match.start(), relation, match.start())
            if best is None or key[:2] > best[:2]:
                best = key
    if best is None:
        return "mentions"
    cue_start, cue_end = best[3], best[0]
    if _GERUND.match(text, cue_start) and not _GERUND_LEAD.fullmatch(text, max(clause_floor, previous_end), cue_start):
        return "mentions"
    if best[2] != "root-cause-in" and _foreign_subject(text, clause_floor, previous_end, cue_start):
        return "mentions"
    if best[2] == "reverted-by" and _acts_on_an_object(text, max(clause_floor, previous_end), cue_start):
        return "root-cause-in"
    if best[2] in _ACTS and _hypothetical(text, max(clause_floor, previous_end), cue_start, ref.end):
        return "mentions"
    if best[2] == "root-cause-in" and _NEUTRAL_ORIGIN.fullmatch(text, cue_start, cue_end):
        return _introduced_object(text, max(clause_floor, previous_end), cue_start)
    if best[2] != "root-cause-in" and _names_the_noun(text, clause_begin, cue_start, cue_end, ref.start):
        return "mentions"
    if (
        subject is not None
        and best[2] != "root-cause-in"
        and _PAST_OR_PASSIVE.search(text, cue_start, cue_end)
        and not _SELF_WORDS.search(text, subject.end, cue_start)
    ):
        return "mentions"
    return best[2]


# "14.1.1 fixes the pytest import (cupy/cupy#9963)", "the upstream release fixes #12": the verb's
# subject is a version or another project's release, not this PR. "Bump to 2.0 to fix #12"
# (an infinitive: this PR's purpose) and "this PR, on 2.0, fixes" stay this PR's.
_FOREIGN_SUBJECT = re.compile(
    r"(?:(?<![\w.])v?\d+\.\d+(?:\.\d+)*[\w.+-]*|\bupstream\b|\b(?:new|next|latest|upcoming) (?:release|version)\b)"
    r"[\s,)]*(?:(?:also|now|finally|already|then)\s+)?$",
    re.I,
)
_INFINITIVE = re.compile(r"\bto\s+$", re.I)


def _foreign_subject(text: str, clause_floor: int, previous_end: int, cue_start: int) -> bool:
    begin = max(clause_floor, previous_end)
    if _INFINITIVE.search(text, max(begin, cue_start - 4), cue_start):
        return False
    match = _FOREIGN_SUBJECT.search(text, begin, cue_start)
    return match is not None and not _SELF_WORDS.search(text, begin, cue_start)


# "unpin once #58 lands", "until #80 is merged", "pending #12": this PR waits for that one.
_WAIT_BEFORE = re.compile(
    r"\b(?:once|until|till|after|when|as soon as|pending)\s+"
    r"(?:(?:the\s+)?(?:pr|pull request|fix|change)\s+(?:in\s+)?)?$",
    re.I,
)
_WAIT_AFTER = re.compile(
    r"\s*(?:(?:is|has been|gets|got|will be)\s+)?(?:lands?|landed|merged|merges|ships?|shipped|released|"
    r"in\b|done|fixed|resolved|goes in|available)\b",
    re.I,
)


def waits_for(text: str, ref: RawRef) -> bool:
    """Whether the sentence says something waits for `ref` to land ("unpin once #58 lands")."""
    before = _WAIT_BEFORE.search(text, max(0, ref.start - 40), ref.start)
    if before is None:
        return False
    return before.group(0).lower().startswith("pending") or _WAIT_AFTER.match(text, ref.end) is not None


def object_after_verb(text: str, refs: list[RawRef], index: int) -> int | None:
    """In "#A temporarily reverted #B", the index of #B when `refs[index]` is #A acting on it
    (active voice): "this restores it" then means #B. None for "#A was reverted in #B"."""
    if index + 1 >= len(refs):
        return None
    between = text[refs[index].end : refs[index + 1].start]
    if not _THIRD_PARTY_VERB.match(between) or _PASSIVE_TAIL.search(between):
        return None
    return index + 1


_PASSIVE_TAIL = re.compile(r"\b(?:by|in|with|via|from|on)\s*$|\b(?:was|were|is|got|been)\b", re.I)


# "restore the pin accidentally rolled back in #3759", "fix the guard reverted in #12": when this
# PR's own verb comes first, the participle describes its object, so the reference is where
# the thing being restored or fixed was broken; this PR itself was not reverted.
_OWN_ACTION = re.compile(
    r"\brestor(?:e|es|ing)\b|\bre-?land(?:s|ing)?\b|\bre-?appl(?:y|ies|ying)\b|\bbring(?:s|ing)? back\b|"
    r"\bre-?introduc(?:e|es|ing)\b|\bfix(?:es|ing)?\b|\bresolv(?:e|es|ing)\b|\breinstat(?:e|es|ing)\b|"
    r"\bre-?add(?:s|ing)?\b|\brevert(?:s|ing)?\b|恢复|修复|重新引入",
    re.I,
)


def _acts_on_an_object(text: str, clause_begin: int, cue_start: int) -> bool:
    return _OWN_ACTION.search(text, clause_begin, cue_start) is not None


# "if we reapply #850", "should we re-land #12?", "whether to revert #9": a revert or restore
# weighed, asked about or put off, not done by this PR.
_ACTS: frozenset[Relation] = frozenset({"reverts", "restores"})
_CONDITION = re.compile(
    r"\b(?:if|whether|unless|in case|in the event|should (?:we|i|you|they|it)|shall we|could we|can we|"
    r"would (?:we|it|you)|do we|might|may want to|we may|consider(?:ing)?)\b|如果|是否|若|可以|可能|考虑",
    re.I,
)
_QUESTION_TAIL = re.compile(r"[^.!\n。！,;:()#]{0,60}?[?？]")


_COMMA = re.compile(r"[,，、\u2013\u2014]")


def _hypothetical(text: str, clause_begin: int, cue_start: int, ref_end: int) -> bool:
    # Only the words of the cue's own phrase: in "since it breaks if X, this reverts #12" the
    # condition belongs to another phrase.
    begin = max([clause_begin, *(m.end() for m in _COMMA.finditer(text, clause_begin, cue_start))])
    return _CONDITION.search(text, begin, cue_start) is not None or _QUESTION_TAIL.match(text, ref_end) is not None


# "introduced in #3489" says where something came from; only a problem ("the regression
# introduced in #12") makes that PR a root cause. "Document the style changes introduced in
# #3489" names what this PR works on: a mention, or the revert/restore its own verb says.
_NEUTRAL_ORIGIN = re.compile(r"introduced (?:in|by)", re.I)
_PROBLEM = re.compile(
    r"\b(?:bugs?|regress\w*|issues?|problems?|crash\w*|errors?|failures?|fail\w*|break\w*|broke|leaks?|"
    r"races?|deadlocks?|hangs?|mistakes?|typos?|flak\w*|slow\w*|warnings?|exceptions?|vulnerab\w*|defects?|"
    r"glitch\w*|wrong|incorrect\w*|side[- ]effects?)\b",
    re.I,
)
_OWN_REVERT = re.compile(r"\brevert(?:s|ing)?\b|\broll(?:s|ing)? back\b|\bback(?:s|ing)? out\b|回退|撤销", re.I)
_OWN_RESTORE = re.compile(
    r"\brestor(?:e|es|ing)\b|\bre-?land(?:s|ing)?\b|\bre-?appl(?:y|ies|ying)\b|\bbring(?:s|ing)? back\b|"
    r"\breinstat(?:e|es|ing)\b|恢复|重新引入",
    re.I,
)


def _introduced_object(text: str, clause_begin: int, cue_start: int) -> Relation:
    if _PROBLEM.search(text, clause_begin, cue_start):
        return "root-cause-in"
    if _OWN_REVERT.search(text, clause_begin, cue_start):
        return "reverts"
    if _OWN_RESTORE.search(text, clause_begin, cue_start):
        return "restores"
    return "mentions"


# "the v0.6.16 revert (#4246)", "a follow-up (#12)": the reference in parentheses right after a
# cue used as a noun names that revert or follow-up itself, not what this PR does to it.
_DETERMINER_BEFORE = re.compile(r"\b(?:the|a|an|its|their|that|this|our|his|her)\s+(?:[\w.-]+\s+){0,3}$", re.I)
_OPEN_PAREN = re.compile(r"\s*\(\s*")


def _names_the_noun(text: str, clause_begin: int, cue_start: int, cue_end: int, ref_start: int) -> bool:
    return (
        _OPEN_PAREN.fullmatch(text, cue_end, ref_start) is not None
        and _DETERMINER_BEFORE.search(text, clause_begin, cue_start) is not None
    )


# "#103 was reverted in #105; this restores it": the pronoun stands for the clause's subject
# reference, and "this" (the PR) is the one doing it. Checked only within one sentence.
_PRONOUN_CUES: tuple[tuple[Relation, str], ...] = (
    (
        "restores",
        r"(?:restor(?:e|es|ing)|re-?land(?:s|ing)?|re-?appl(?:y|ies|ying)|re-?introduc(?:e|es|ing))\s+(?:it|them)\b|"
        r"bring(?:s|ing)?\s+(?:it|them)\s+back\b",
    ),
    ("reverts", r"revert(?:s|ing)?\s+(?:it|them)\b|roll(?:s|ing)?\s+(?:it|them)\s+back\b"),
    ("fixes", r"fix(?:es|ing)?\s+(?:it|them)\b"),
    ("supersedes", r"(?:supersed(?:e|es|ing)|replac(?:e|es|ing))\s+(?:it|them)\b"),
)
_PRONOUN_PATTERNS = tuple(
    (
        relation,
        re.compile(
            rf"\b{_SELF_SUBJECT}\s+(?:(?:now|also|just|then|simply|finally|partially|partly)\s+)?(?:{cue})", re.I
        ),
    )
    for relation, cue in _PRONOUN_CUES
)
_PRONOUN_CUES_ZH: tuple[tuple[Relation, str], ...] = (
    ("restores", "重新引入|恢复"),
    ("reverts", "回退|撤销"),
    ("fixes", "修复"),
)
_PRONOUN_PATTERNS_ZH = tuple(
    (relation, re.compile(rf"(?:本\s*PR|本次(?:改动|修改|提交)?|我们)\s*(?:{cue})了?它", re.I))
    for relation, cue in _PRONOUN_CUES_ZH
)
_PRONOUN_REACH = 240  # characters after the subject reference searched for "this restores it"


def pronoun_relation(text: str, subject: RawRef, until: int) -> Relation | None:
    """The relation "this … it" states for `subject`, looking from it up to `until` (its sentence end)."""
    end = min(until, subject.end + _PRONOUN_REACH)
    found: tuple[int, Relation] | None = None
    for relation, pattern in (*_PRONOUN_PATTERNS, *_PRONOUN_PATTERNS_ZH):
        match = pattern.search(text, subject.end, end)
        if match is not None and (found is None or match.start() < found[0]):
            found = (match.start(), relation)
    return found[1] if found else None


# --- titles ------------------------------------------------------------------------------
# A title is one clause with this PR as its subject: "Fix crash in X when Y (#4731)",
# "fix(client): handle Z (#5902)". Its head (a conventional-commit type, else its first word)
# governs the numbers in parentheses that end it, however long the words between.
_TITLE_HEAD = re.compile(r"^\s*(?:(?P<type>[A-Za-z]+)(?:\([^)\n]*\))?!?:\s*)?(?P<verb>[A-Za-z]+)")
_TRAILING_REFS = re.compile(r"(?:\(\s*#\d{1,9}\s*\)[\s,]*)+$")
_FIX_HEAD = re.compile(r"fix(?:es|ed|ing)?|bug ?fix(?:es)?|resolves?|closes?|hotfix", re.I)
# "[2.x] Fix crash (#431)", "[release-3.0] …": a leading tag naming a release line (a version
# with a dot; "[563]" is an issue's number) says this PR carries a change to that branch, and
# the number ending its title is the PR it ports: a follow-up to it, not a fix of it.
_BRANCH_TAG = re.compile(r"^\s*\[[^\]\n]*?\d+\.(?:\d+|x)\b[^\]\n]*\]", re.I)


def title_head_span(title: str) -> tuple[Relation | None, int]:
    """The relation a title's head states for the references in parentheses ending it, and
    where they begin; (None, len) when its head is no fix nor a release branch's tag."""
    trailing = _TRAILING_REFS.search(title)
    if trailing is not None and _BRANCH_TAG.match(title):
        return "follow-up-to", trailing.start()
    head = _TITLE_HEAD.match(title)
    if trailing is None or head is None:
        return None, len(title)
    kind = head.group("type")
    word = kind if kind is not None else head.group("verb")
    if not _FIX_HEAD.fullmatch(word):
        return None, len(title)
    return "fixes", trailing.start()


# --- evidence ----------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9#\"'(\[])|[。！？]|\n\s*\n|\n(?=\s*[-*+>]|\s*\d+[.)])")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class SentenceBounds:
    """Sentence separators of one text, as sorted start and end offsets."""

    starts: list[int]
    ends: list[int]


def sentence_bounds(text: str) -> SentenceBounds:
    spans = [(m.start(), m.end()) for m in _SENTENCE_END.finditer(text)]
    return SentenceBounds([a for a, _ in spans], [b for _, b in spans])


def sentence_around(text: str, start: int, end: int, limit: int = 160, bounds: SentenceBounds | None = None) -> str:
    """The sentence containing [start, end), whitespace-collapsed and cut to `limit`.

    Pass `bounds` (from `sentence_bounds`) when asking about many spans of one text.
    """
    if bounds is None:
        bounds = sentence_bounds(text)
    index = bisect_right(bounds.ends, start)
    begin = bounds.ends[index - 1] if index > 0 else 0
    after = bisect_left(bounds.starts, end)
    finish = len(text)
    if after < len(bounds.starts):
        finish = bounds.starts[after] + (1 if text[bounds.starts[after]] in "。！？" else 0)
    # Only the neighbourhood can be shown: cut before collapsing, so long texts stay cheap.
    begin = max(begin, start - 4 * limit)
    finish = min(finish, end + 4 * limit)
    return shorten_around(text[begin:finish], start - begin, limit)


def shorten_around(sentence: str, offset: int, limit: int) -> str:
    """Collapse whitespace and cut to `limit` chars, keeping the part around `offset`."""
    head = _SPACES.sub(" ", sentence[:offset]).lstrip()
    tail = _SPACES.sub(" ", sentence[offset:]).rstrip()
    whole = head + tail
    if len(whole) <= limit:
        return whole
    keep_before = min(len(head), limit // 3)
    cut_start = len(head) - keep_before
    piece = whole[cut_start : cut_start + limit - 2]
    prefix = "…" if cut_start > 0 else ""
    suffix = "…" if cut_start + len(piece) < len(whole) else ""
    return (prefix + piece.strip() + suffix)[: limit + 2]
