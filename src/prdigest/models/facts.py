"""Facts: what the deterministic analyzers can prove about one pull request.

Each analyzer returns one of the ``*Facts`` models below; `Facts` gathers them. Prose
(reports, feed) is written on top of these and never contradicts them. All models are
JSON-serializable and versioned through `FACTS_SCHEMA_VERSION`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

FACTS_SCHEMA_VERSION = 2


class _Fact(BaseModel):
    model_config = ConfigDict(extra="forbid")


EvidenceParams = dict[str, str | list[str]]


class Evidence(_Fact):
    """One language-neutral fact behind a risk tag or a verdict reason.

    `template` names a sentence in ``prdigest/words/<lang>/labels.toml`` (``evidence`` /
    ``reason_details`` tables); `params` fill it: paths, packages, versions, symbols,
    vocabulary ids, counts and verbatim quotes, never prose.
    """

    template: str
    params: EvidenceParams = Field(default_factory=dict)


# --- files -----------------------------------------------------------------------------

FileCategory = Literal["source", "test", "config", "infra", "docs", "other"]
FileType = Literal["core-logic", "configuration", "infrastructure", "dependency-wiring", "test", "docs"]


class FileFact(_Fact):
    path: str
    previous_path: str | None = None
    status: str = "modified"
    category: FileCategory = "other"
    type: FileType = "core-logic"
    module: str = ""
    language: str | None = None
    additions: int = 0
    deletions: int = 0
    binary: bool = False
    generated: bool = False
    is_key: bool = False
    key_reason: str | None = None  # English, for JSON consumers and logs
    key_reason_code: str | None = None  # the same reason, language-neutral (see prdigest/words, labels [key_reasons])
    key_reason_params: dict[str, str] = Field(default_factory=dict)


class FilesFacts(_Fact):
    files: list[FileFact] = Field(default_factory=list)
    total_files: int = 0
    total_additions: int = 0
    total_deletions: int = 0
    modules: list[str] = Field(default_factory=list)

    def key_files(self) -> list[FileFact]:
        return [f for f in self.files if f.is_key]


# --- symbols and key code --------------------------------------------------------------

SymbolKind = Literal["function", "method", "class", "struct", "enum", "interface", "trait", "impl", "other"]
ChangeKind = Literal["added", "modified", "removed"]


class SymbolChange(_Fact):
    path: str
    name: str  # qualified where the language allows: HummingConfig.__init__
    kind: SymbolKind = "function"
    change: ChangeKind = "modified"
    language: str | None = None
    start_line: int | None = None  # in the new file (old file for removed symbols)
    end_line: int | None = None
    # "tree-sitter" when parsed from contents, "hunk-header" when inferred from the patch.
    method: Literal["tree-sitter", "hunk-header"] = "tree-sitter"


class CodeExcerpt(_Fact):
    path: str
    symbol: str | None = None
    language: str | None = None
    start_line: int | None = None
    text: str  # unified-diff lines (+/-/space prefixed), trimmed
    reason: str = ""
    truncated: bool = False


CodeEditKind = Literal[
    "import-guard-to-platform-check",
    "import-guard-added",
    "import-guard-removed",
    "platform-check-added",
    "regex-changed",
    "assertion-removed",
    "assertion-added",
    "decorator-applied",
    "decorator-removed",
    "parameter-added",
    "parameter-removed",
    "constant-changed",
    "constant-items-changed",
    "raise-added",
    "raise-removed",
    "exception-handler-added",
    "exception-handler-removed",
]


class CodeEdit(_Fact):
    """One thing a hunk does to the code, read from its statements: language-neutral, with
    the names and values it concerns (``params``) and how many places it touches."""

    kind: CodeEditKind
    path: str
    symbol: str | None = None  # the enclosing changed symbol, when known
    line: int | None = None  # in the new file (old file for removals)
    params: dict[str, str] = Field(default_factory=dict)
    count: int = 1  # places with the same edit (a decorator applied to 16 endpoints)


class SymbolsFacts(_Fact):
    symbols: list[SymbolChange] = Field(default_factory=list)
    excerpts: list[CodeExcerpt] = Field(default_factory=list)  # in `key_order`, the central change first
    # The key files, most important first (see prdigest.analyzers.importance); empty in old facts.
    key_order: list[str] = Field(default_factory=list)
    # What the code change does, statement by statement (see prdigest.analyzers.symbols.edits).
    edits: list[CodeEdit] = Field(default_factory=list)


# --- dependencies ----------------------------------------------------------------------

DependencyChangeKind = Literal[
    "added",
    "removed",
    "cap-added",
    "cap-relaxed",
    "cap-tightened",
    "cap-to-exclusion",
    "exclusion-added",
    "exclusion-removed",
    "floor-raised",
    "floor-lowered",
    "pinned",
    "unpinned",
    "pin-changed",
    "extras-changed",
    "markers-changed",
    "variant-renamed",
    "other",
]


class DependencyChange(_Fact):
    path: str
    package: str
    before: str | None = None  # the requirement text before (None when added)
    after: str | None = None  # the requirement text after (None when removed)
    kinds: list[DependencyChangeKind] = Field(default_factory=list)
    source_kind: Literal["requirements", "pyproject", "setup", "dockerfile", "shell", "other"] = "requirements"
    versions_considered: list[str] = Field(default_factory=list)
    newly_admitted: list[str] = Field(default_factory=list)
    newly_excluded: list[str] = Field(default_factory=list)
    variant_family: str | None = None  # e.g. "cupy" for cupy-cuda12x / cupy-cuda13x


class DependencyFinding(_Fact):
    kind: Literal["variant-conflict", "duplicated-rewrite", "unparsable"]
    detail: str
    paths: list[str] = Field(default_factory=list)
    packages: list[str] = Field(default_factory=list)


class DependenciesFacts(_Fact):
    changes: list[DependencyChange] = Field(default_factory=list)
    findings: list[DependencyFinding] = Field(default_factory=list)


# --- tests and CI ----------------------------------------------------------------------


class TestsCIFacts(_Fact):
    source_changed: bool = False
    tests_changed: bool = False
    test_files: list[str] = Field(default_factory=list)
    # a behaviour-changing source change (not a revert, typo fix, version bump or comment
    # edit) and no test changed
    missing_tests: bool = False
    ci_changed: bool = False
    ci_files: list[str] = Field(default_factory=list)
    ci_jobs: list[str] = Field(default_factory=list)  # job names / patterns touched
    ci_only: bool = False


# --- references and lineage ------------------------------------------------------------

Relation = Literal[
    "fixes",
    "reverts",
    "reverted-by",
    "follow-up-to",
    "supersedes",
    "superseded-by",
    "alternative-to",
    "depends-on",
    "root-cause-in",
    "restores",
    "mentions",
]
# The same links read from the other end (B "fixes" A makes A "fixed-by" B); the relations
# that have no name of their own that way round (reverts / reverted-by, supersedes /
# superseded-by, alternative-to) turn into one of `Relation`.
IncomingRelation = Literal[
    "fixed-by",
    "restored-by",
    "followed-up-by",
    "depended-on-by",
    "root-cause-of",
    "mentioned-by",
]
# Every relation a lineage link can have.
LineageRelation = Literal[Relation, IncomingRelation]


class Reference(_Fact):
    repository: str  # OWNER/NAME of the target
    number: int
    target_kind: Literal["pr", "issue", "unknown"] = "unknown"
    relation: Relation = "mentions"
    where: Literal["title", "body", "commit", "comment", "review", "git-revert", "closing-issue"] = "body"
    evidence: str = ""  # the sentence or line that states it, shortened


class ReferencesFacts(_Fact):
    references: list[Reference] = Field(default_factory=list)
    reverted_commits: list[str] = Field(default_factory=list)  # SHAs from "This reverts commit ..."


# --- discussion ------------------------------------------------------------------------

ThreadKind = Literal["design", "correctness", "question", "performance", "style", "other"]
ThreadOutcome = Literal["resolved", "changed-in-code", "answered", "unresolved", "no-reply"]


class Quote(_Fact):
    author: str
    text: str
    is_bot: bool = False


class DiscussionThread(_Fact):
    topic: str
    kind: ThreadKind = "other"
    outcome: ThreadOutcome = "no-reply"
    path: str | None = None
    line: int | None = None
    origin: Literal["review-thread", "conversation", "review"] = "review-thread"
    participants: list[str] = Field(default_factory=list)
    quotes: list[Quote] = Field(default_factory=list)
    automated: bool = False  # opened by a code-review bot with a substantive point


class DiscussionFacts(_Fact):
    threads: list[DiscussionThread] = Field(default_factory=list)
    review_comment_count: int = 0
    conversation_comment_count: int = 0
    bot_notice_count: int = 0  # merge-bot noise: rebase needed, pre-commit failed, /ci run
    approvals: list[str] = Field(default_factory=list)
    changes_requested_by: list[str] = Field(default_factory=list)
    participants: list[str] = Field(default_factory=list)


# --- risks and verdict -----------------------------------------------------------------


Severity = Literal["low", "medium", "high"]


class RiskTag(_Fact):
    tag: str  # id from the controlled vocabulary, e.g. "dependency-constraint-change"
    label_zh: str
    label_en: str
    evidence: str  # the fact that triggered it, in English (joined when several did)
    severity: Severity = "low"
    items: list[Evidence] = Field(default_factory=list)  # the same facts, language-neutral
    more: int = 0  # triggers beyond `items`


class RisksFacts(_Fact):
    tags: list[RiskTag] = Field(default_factory=list)


class VerdictLevel(StrEnum):
    READ_IN_DEPTH = "read-in-depth"
    QUICK_READ = "quick-read"
    SKIP = "skip"


# A verdict in other records (reports, feeds): the members of `VerdictLevel`, as a Literal so
# that their JSON schema stays an inline enum of the values.
VerdictName = Literal[VerdictLevel.READ_IN_DEPTH, VerdictLevel.QUICK_READ, VerdictLevel.SKIP]


class VerdictReason(_Fact):
    code: str  # e.g. "debugging-method", "test-pattern", "design-trap", "dependency-practice", "size", "risk"
    detail: str  # in English
    weight: float = 0.0
    items: list[Evidence] = Field(default_factory=list)  # the detail, language-neutral


class VerdictFacts(_Fact):
    level: VerdictLevel = VerdictLevel.SKIP
    score: float = 0.0
    reasons: list[VerdictReason] = Field(default_factory=list)


# --- the whole -------------------------------------------------------------------------


class Facts(_Fact):
    """Every analyzer's result for one PR at one head SHA."""

    schema_version: int = FACTS_SCHEMA_VERSION
    repository: str
    number: int
    head_sha: str | None = None
    analyzer_versions: dict[str, str] = Field(default_factory=dict)
    files: FilesFacts = Field(default_factory=FilesFacts)
    symbols: SymbolsFacts = Field(default_factory=SymbolsFacts)
    dependencies: DependenciesFacts = Field(default_factory=DependenciesFacts)
    tests_ci: TestsCIFacts = Field(default_factory=TestsCIFacts)
    references: ReferencesFacts = Field(default_factory=ReferencesFacts)
    discussion: DiscussionFacts = Field(default_factory=DiscussionFacts)
    risks: RisksFacts = Field(default_factory=RisksFacts)
    verdict: VerdictFacts = Field(default_factory=VerdictFacts)
