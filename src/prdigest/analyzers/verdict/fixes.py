"""Is this PR a fix, and how severe is what it fixes?

Read from the PR's own words (title, then the author's text) and from its diff: a fix that
adds a lock or a mutex is a concurrency fix whatever it is called. The severity classes are
the ones a reader must not miss: concurrency, memory safety, leaks, data loss, security
(high); crashes and hangs (medium). A word alone is not enough in the body: there the PR
must be a fix for its words to count, since a feature's description may mention races it
avoids.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from prdigest.diff import parse_patch
from prdigest.models.facts import ReferencesFacts
from prdigest.models.pullrequest import PullRequest

_FIX_TITLE = re.compile(
    r"^\W*(?:\[[^\]]{0,40}\]\s*)*(?:fix(?:es|ed|ing)?|bug ?fix(?:es)?|hot ?fix|repair|resolve[sd]?|correct(?:s|ed)?)\b"
    r"|^\W*(?:fix|bug)(?:\([^)]{0,40}\))?!?:"
    r"|^\s*(?:🐛|🚑)",
    re.IGNORECASE,
)
# kind code → pattern; the code is what the reason carries (words/<lang>/labels.toml [fix_kinds]).
HIGH: dict[str, re.Pattern[str]] = {
    "concurrency": re.compile(
        r"\b(?:race(?:[- ]condition)?s?|data race|racy|deadlock(?:s|ed)?|thread[- ]?safe(?:ty)?|"
        r"concurren(?:t|cy) (?:bug|issue|access))\b",
        re.IGNORECASE,
    ),
    "memory-safety": re.compile(
        r"\b(?:use[- ]after[- ]free|double[- ]free|null(?:ptr)?[- ](?:pointer|dereference|deref)|"
        r"uninitiali[sz]ed (?:read|memory|value|variable)|buffer overflow|out[- ]of[- ]bounds|memory corruption|"
        r"dangling (?:pointer|reference))\b",
        re.IGNORECASE,
    ),
    "leak": re.compile(
        r"\b(?:memory|resource|file descriptor|fd|connection|socket) leaks?\b|\bleak(?:s|ed|ing)?\b", re.IGNORECASE
    ),
    "data-loss": re.compile(
        r"\b(?:corrupt(?:s|ed|ion|ing)?|data loss|los(?:e|es|t|ing) (?:data|writes?|updates?|messages?))\b",
        re.IGNORECASE,
    ),
    "security": re.compile(
        r"\b(?:vulnerab\w+|CVE-\d{4}-\d+|(?:sql|command|header|code) injection|xss|csrf|ssrf|"
        r"privilege escalation|auth(?:entication|orization)? bypass|path traversal|remote code execution)\b",
        re.IGNORECASE,
    ),
}
MEDIUM: dict[str, re.Pattern[str]] = {
    "crash": re.compile(
        r"\b(?:crash(?:es|ed|ing)?|segfaults?|segmentation fault|panic(?:s|ked)?|abort(?:s|ed)?)\b", re.IGNORECASE
    ),
    "hang": re.compile(
        r"\b(?:hang(?:s|ing)?|hung|infinite (?:loop|recursion)|stack overflow|out of memory|OOM|memory spike)\b",
        re.IGNORECASE,
    ),
}
# A Conventional Commits type declaring that the change is to the tests, docs, CI or formatting:
# a bug class its title names ("test: resolve race conditions in integration tests") is theirs,
# not one fixed in the code users run.
_NOT_THE_PRODUCT = re.compile(r"^\W*(?:tests?|docs?|ci|style)(?:\([^)]{0,40}\))?!?:", re.IGNORECASE)
# What a concurrency fix adds to the code: a lock, a mutex, an atomic.
_LOCK_ADDED = re.compile(
    r"\b(?:threading\.(?:R?Lock|Condition|Semaphore)|asyncio\.Lock|std::(?:mutex|lock_guard|unique_lock|atomic)|"
    r"sync\.(?:Mutex|RWMutex)|Mutex<|RwLock<|pthread_mutex_lock)\b"
)


@dataclass(frozen=True)
class FixSeverity:
    kind: str  # a code of HIGH or MEDIUM
    level: str  # "high" | "medium"
    quote: str  # the words that say it (title or sentence), or the code line that shows it
    # The PR says it fixes something (`is_fix`); else its title only names the class
    # ("Remove unnecessary XSS check"), which is worth reading but is no fix claimed.
    claimed: bool = True


def is_fix(pr: PullRequest, refs: ReferencesFacts) -> bool:
    return claims_fix(pr.title, refs)


def claims_fix(title: str, refs: ReferencesFacts) -> bool:
    """The PR says it fixes something: by its title, or by fixing an issue it names."""
    if _FIX_TITLE.search(title):
        return True
    return any(r.relation == "fixes" and r.target_kind != "pr" for r in refs.references)


def fix_severity(pr: PullRequest, refs: ReferencesFacts, author_text: str) -> FixSeverity | None:
    """The most severe class this PR fixes (or, without a fix claimed, its title names), with
    the words or code that show it."""
    if _NOT_THE_PRODUCT.search(pr.title):
        return None
    fix = is_fix(pr, refs)
    sources = [pr.title] + ([s for s in _sentences(author_text)] if fix else [])
    for level, table in (("high", HIGH), ("medium", MEDIUM)):
        for text in sources:
            for kind, pattern in table.items():
                if pattern.search(text) and _not_negated(text, pattern):
                    return FixSeverity(kind, level, _clip(text), claimed=fix)
        if level == "high" and fix:
            lock = _lock_added(pr)
            if lock:
                return FixSeverity("concurrency", "high", _clip(lock))
    return None


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?。！？])\s+|\n+", text) if s.strip()]


def _not_negated(text: str, pattern: re.Pattern[str]) -> bool:
    """ "no race", "without leaking": the words deny what they name."""
    match = pattern.search(text)
    if match is None:
        return False
    before = text[max(0, match.start() - 12) : match.start()].lower()
    return (
        not re.search(r"\b(?:no|not|without|avoid(?:s|ing)?|prevent(?:s|ing)?)\s+$", before)
        or _FIX_TITLE.search(text) is not None
    )


def _lock_added(pr: PullRequest) -> str:
    for change in pr.files:
        for line in parse_patch(change.patch).changes():
            if line.kind == "+" and _LOCK_ADDED.search(line.text):
                return line.text.strip()
    return ""


def _clip(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
