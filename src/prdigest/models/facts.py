"""Facts: what the deterministic analyzers can prove about one pull request.

Each analyzer returns one of the ``*Facts`` models below; `Facts` gathers them. Prose
(reports, feed) is written on top of these and never contradicts them. All models are
JSON-serializable and versioned through `FACTS_SCHEMA_VERSION`.
"""

from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from prdigest.models.factories import new_list
from prdigest.models.states import CoverageGap, IncompleteReason

FACTS_SCHEMA_VERSION = 2


class _Fact(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


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

FileCategory = Literal["source", "test", "config", "infra", "docs", "example", "other"]
FileType = Literal["core-logic", "configuration", "infrastructure", "dependency-wiring", "test", "docs", "example"]


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
    messages_only: bool = False  # the change rewords only prose string literals (analyzers/message_text)
    is_key: bool = False
    key_reason: str | None = None  # English, for JSON consumers and logs
    key_reason_code: str | None = None  # the same reason, language-neutral (see prdigest/words, labels [key_reasons])
    key_reason_params: dict[str, str] = Field(default_factory=dict)


class FilesFacts(_Fact):
    files: list[FileFact] = Field(default_factory=new_list)
    total_files: int = 0
    total_additions: int = 0
    total_deletions: int = 0
    modules: list[str] = Field(default_factory=new_list)

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
    # modified only in its docstrings, comments or blank lines (analyzers/symbols/docs_only)
    docs_only: bool = False
    # modified only in its type annotations (and docstrings): it runs as before (analyzers/symbols/typing_only)
    typing_only: bool = Field(default=False, exclude_if=lambda value: not value)
    # Marked reachable from outside by a keyword (Rust `pub`, JS/TS `export`) or not; None
    # where names decide (Python, Go) or nothing was read (see analyzers/symbol_names).
    exported: bool | None = Field(default=None, exclude_if=lambda value: value is None)


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
    "default-changed",
    "constant-changed",
    "constant-items-changed",
    "raise-added",
    "raise-removed",
    "exception-handler-added",
    "exception-handler-removed",
    "call-added",
    "call-removed",
    "requirement-rewrite-added",
    "requirement-rewrite-removed",
    "script-steps",
    "script-commands-changed",
    "ci-run-changed",
    "ci-step-added",
    "ci-step-removed",
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
    symbols: list[SymbolChange] = Field(default_factory=new_list)
    excerpts: list[CodeExcerpt] = Field(default_factory=new_list)  # in `key_order`, the central change first
    # The key files, most important first (see prdigest.analyzers.importance); empty in old facts.
    key_order: list[str] = Field(default_factory=new_list)
    # What the code change does, statement by statement (see prdigest.analyzers.symbols.edits).
    edits: list[CodeEdit] = Field(default_factory=new_list)


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
    "replaced-by",  # a removal whose family lives on in another package (nixl-cu12 -> nixl)
    "downgraded",  # everything the new constraint admits is below the old floor
    "other",
]

# Who installs the requirement: the package's users (runtime / optional extras), its build,
# its developers (tests, docs, lint), CI jobs; "unknown" when the file does not tell.
DependencyScope = Literal["runtime", "optional", "build", "dev", "ci", "unknown"]


class DependencyChange(_Fact):
    path: str
    package: str
    before: str | None = None  # the requirement text before (None when added)
    after: str | None = None  # the requirement text after (None when removed)
    kinds: list[DependencyChangeKind] = Field(default_factory=new_list)
    # go / cargo / npm: go.mod, Cargo.toml, package.json (`analyzers.dependencies.ecosystems`)
    source_kind: Literal["requirements", "pyproject", "setup", "dockerfile", "shell", "other", "go", "cargo", "npm"] = (
        "requirements"
    )
    versions_considered: list[str] = Field(default_factory=new_list)
    newly_admitted: list[str] = Field(default_factory=new_list)
    newly_excluded: list[str] = Field(default_factory=new_list)
    variant_family: str | None = None  # e.g. "cupy" for cupy-cuda12x / cupy-cuda13x
    scope: DependencyScope = "unknown"
    # where in the manifest: "dependencies", "optional:<extra>", "extra:<extra>", "group:<name>",
    # "build-system", "install_requires", ...; None for files without groups
    group: str | None = None
    # "replaced-by": the package that takes the removed one's place (same family).
    replaced_by: str | None = None
    # "added" in place of removed members of its family: the packages it replaces.
    replaces: list[str] = Field(default_factory=new_list)
    # A build switch in setup.py that chooses this specifier (``IS_RELEASE`` / ``not IS_RELEASE``).
    condition: str | None = None
    # "added" here and removed by the same PR from these paths, for the same users: the
    # declaration moved (setup.py to pyproject.toml, one extra to another), the likeliest place
    # first. Decided once, by the dependencies analyzer; each place it left holds a "removed"
    # change of this package.
    moved_from: list[str] = Field(default_factory=new_list)
    # a move whose versions or markers changed on the way from its first place (``==24.1`` there,
    # ``==25.1`` here)
    moved_changed: bool = False


class DependencyFinding(_Fact):
    # unread-format: a manifest of another ecosystem (Gemfile, pom.xml, ...) changed, or a
    # go.mod-like one whose whole text is not in the record; its declarations are not read, so
    # nothing is said of what it changes
    kind: Literal["variant-conflict", "duplicated-rewrite", "duplicated-pin", "unparsable", "unread-format"]
    detail: str
    paths: list[str] = Field(default_factory=new_list)
    packages: list[str] = Field(default_factory=new_list)


class DependenciesFacts(_Fact):
    changes: list[DependencyChange] = Field(default_factory=new_list)
    findings: list[DependencyFinding] = Field(default_factory=new_list)


# --- tests and CI ----------------------------------------------------------------------


class CIActionChange(_Fact):
    """A CI action moved to another version (``actions/setup-python`` ``v6.3.0`` → ``v7.0.0``)."""

    action: str
    before: str
    after: str
    count: int = 1  # workflow lines that make the change


class TestsCIFacts(_Fact):
    source_changed: bool = False
    tests_changed: bool = False
    test_files: list[str] = Field(default_factory=new_list)  # tests added, modified or renamed
    # Source files whose own test module changed (Rust's `mod tests`): tests beside the code.
    in_file_tests: list[str] = Field(default_factory=new_list, exclude_if=lambda value: not value)
    # Tests deleted by the PR: a deletion is not a test "updated alongside the change".
    removed_test_files: list[str] = Field(default_factory=new_list)
    # a behaviour-changing source change (not a revert, typo fix, version bump or comment edit),
    # no test added or updated, on a complete file list
    missing_tests: bool = False
    # False when the file list is partial or unknown (see `CoverageFacts`): "no test changed"
    # would rest on files nobody saw.
    files_known: bool = True
    ci_changed: bool = False
    ci_files: list[str] = Field(default_factory=new_list)
    ci_jobs: list[str] = Field(default_factory=new_list)  # job names / patterns touched
    ci_only: bool = False
    ci_actions: list[CIActionChange] = Field(default_factory=new_list)  # versions of CI actions changed


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
    "prerequisite-for",
    "followed-up-by",
    "mentions",
]
# The same links read from the other end (B "fixes" A makes A "fixed-by" B); the relations
# that have no name of their own that way round (reverts / reverted-by, supersedes /
# superseded-by, alternative-to) turn into one of `Relation`.
IncomingRelation = Literal[
    "fixed-by",
    "restored-by",
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
    where: Literal[
        "title",
        "body",
        "commit",
        "comment",
        "review",
        "git-revert",
        "closing-issue",
        "code",
        "git-blame",
        "git-diff",
        "ledger",
    ] = "body"
    evidence: str = ""  # the sentence or line that states it, shortened


class Deferral(_Fact):
    """A sentence saying something is to be done later ("relax once 14.1.1 ships", "unpin
    once #58 lands", "TODO(#61)"): what a later PR may follow up."""

    evidence: str  # the sentence, shortened
    where: Literal["title", "body", "commit", "comment", "review", "code"] = "body"
    waits_for: list[int] = Field(default_factory=new_list)  # same-repository numbers it waits for
    versions: list[str] = Field(default_factory=new_list)  # versions it waits for ("14.1.1")
    words: list[str] = Field(default_factory=new_list)  # package-like words it names, lowercased


class ReferencesFacts(_Fact):
    references: list[Reference] = Field(default_factory=new_list)
    reverted_commits: list[str] = Field(default_factory=new_list)  # SHAs from "This reverts commit ..."
    # Left out of the JSON when empty: the cross-PR pass finds the PRs that have some by text.
    deferrals: list[Deferral] = Field(default_factory=new_list, exclude_if=lambda value: not value)
    # Numbers named by TODO/FIXME lines this PR removes ("# TODO(#61)" deleted): work done.
    todos_removed: list[int] = Field(default_factory=new_list, exclude_if=lambda value: not value)


# --- lineage: what other PRs of the repository did to this one -------------------------


class LineageEvent(_Fact):
    """Another PR's link with this one, from the cross-PR pass (after every PR is analyzed)."""

    repository: str
    number: int
    title: str = ""
    merged_at: datetime | None = None
    evidence: str = ""  # the sentence that states it
    # A revert's or restore's days from this PR's merge to its own (None: a date is unknown).
    days_after: int | None = Field(default=None, exclude_if=lambda value: value is None)


class FollowUp(LineageEvent):
    """``number`` did (or was told to do) what the earlier PR left for later."""

    promise: str = ""  # the earlier PR's sentence saying it would be done later
    matched_by: Literal["reference", "todo", "dependency", "waited-for"] = "reference"


class DiffLine(_Fact):
    path: str
    text: str


class RestoreDiff(_Fact):
    """What a restore / re-land brings back compared with what the restored PR added."""

    original: int  # the PR whose change is brought back
    identical: bool = False  # the same added lines, file by file
    files_not_restored: list[str] = Field(default_factory=new_list)
    files_new: list[str] = Field(default_factory=new_list)
    symbols_not_restored: list[str] = Field(default_factory=new_list)  # "path:name" added/changed by the original only
    symbols_new: list[str] = Field(default_factory=new_list)
    lines_not_restored: list[DiffLine] = Field(default_factory=new_list)  # the original's added lines left out
    lines_new: list[DiffLine] = Field(default_factory=new_list)  # added lines the original did not have
    more_lines_not_restored: int = 0
    more_lines_new: int = 0


class RootCause(LineageEvent):
    """A fix and the earlier PR that wrote the lines it changes (git blame of its parent)."""

    lines: int  # the fix's changed lines (in its parent) that the earlier PR wrote
    of_lines: int  # all the fix's changed lines blamed (code files only), not just the central file's
    paths: list[str] = Field(default_factory=new_list)
    days_between: int | None = None  # from the earlier PR's merge to the fix's


class LineageFacts(_Fact):
    reverted_by: list[LineageEvent] = Field(default_factory=new_list)
    restored_by: list[LineageEvent] = Field(default_factory=new_list)
    follows_up: list[FollowUp] = Field(default_factory=new_list)
    followed_up_by: list[FollowUp] = Field(default_factory=new_list)
    restore_diffs: list[RestoreDiff] = Field(default_factory=new_list)
    # This fix changes lines that PR wrote / a later fix changed lines this PR wrote.
    root_cause_in: list[RootCause] = Field(default_factory=new_list, exclude_if=lambda value: not value)
    fixed_by: list[RootCause] = Field(default_factory=new_list, exclude_if=lambda value: not value)

    def is_empty(self) -> bool:
        return not (
            self.reverted_by
            or self.restored_by
            or self.follows_up
            or self.followed_up_by
            or self.restore_diffs
            or self.root_cause_in
            or self.fixed_by
        )


class LineOrigin(_Fact):
    """Who wrote some of the lines a PR changes in one file: a commit of the parent's history."""

    commit: str
    number: int | None = None  # the PR that commit belongs to, when one stored PR has it
    path: str  # in the parent
    lines: int
    # The nearest commit plain blame named that only moved or re-wrapped these lines (its
    # own diff proves it, sources/git/moves.py), and its PR: `commit` is who wrote them.
    moved_by: str | None = Field(default=None, exclude_if=lambda value: value is None)
    moved_by_number: int | None = Field(default=None, exclude_if=lambda value: value is None)


class LineOrigins(_Fact):
    """``git blame -w -M -C`` of the lines a PR removes or changes, in its commit's parent.

    Filled (after analysis, from the clone) for PRs that say they fix something; code files
    only, bounded per PR (``limited`` when the bound cut it)."""

    # How they were blamed (analyzers/versions.ORIGINS_VERSION; 1 before it was written).
    # The first field, so a LIKE on the stored JSON tells stale origins from current ones.
    version: int = 1
    commit: str  # the PR's own (merge or squash) commit; blame ran on its first parent
    lines: int = 0  # changed lines blamed
    lines_by_path: dict[str, int] = Field(default_factory=dict)
    origins: list[LineOrigin] = Field(default_factory=new_list)  # most lines first
    unattributed: int = 0  # lines of commits no stored PR has (direct pushes, older history)
    limited: bool = False


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
    participants: list[str] = Field(default_factory=new_list)
    quotes: list[Quote] = Field(default_factory=new_list)
    automated: bool = False  # opened by a code-review bot with a substantive point
    # The code the opening comment proposes in a GitHub suggestion block ("" = delete the
    # lines), None when it proposes none. For a suggestion-only comment it is the point.
    suggestion: str | None = None


class DiscussionFacts(_Fact):
    threads: list[DiscussionThread] = Field(default_factory=new_list)
    review_comment_count: int = 0
    conversation_comment_count: int = 0
    bot_notice_count: int = 0  # merge-bot noise: rebase needed, pre-commit failed, /ci run
    approvals: list[str] = Field(default_factory=new_list)
    changes_requested_by: list[str] = Field(default_factory=new_list)
    participants: list[str] = Field(default_factory=new_list)


# --- risks and verdict -----------------------------------------------------------------


Severity = Literal["low", "medium", "high"]


class RiskTag(_Fact):
    tag: str  # id from the controlled vocabulary, e.g. "dependency-constraint-change"
    label_zh: str
    label_en: str
    evidence: str  # the fact that triggered it, in English (joined when several did)
    severity: Severity = "low"
    items: list[Evidence] = Field(default_factory=new_list)  # the same facts, language-neutral
    more: int = 0  # triggers beyond `items`


class RisksFacts(_Fact):
    tags: list[RiskTag] = Field(default_factory=new_list)


class VerdictLevel(StrEnum):
    READ_IN_DEPTH = "read-in-depth"
    QUICK_READ = "quick-read"
    SKIP = "skip"


# A verdict in other records (reports, feeds): the members of `VerdictLevel`, as a Literal so
# that their JSON schema stays an inline enum of the values.
VerdictName = Literal[VerdictLevel.READ_IN_DEPTH, VerdictLevel.QUICK_READ, VerdictLevel.SKIP]


class VerdictReason(_Fact):
    code: str  # e.g. "core-change", "fix", "lineage", "design-trap", "dependency-decision", "docs-only"
    detail: str  # in English
    weight: float = 0.0
    items: list[Evidence] = Field(default_factory=new_list)  # the detail, language-neutral


class VerdictFacts(_Fact):
    level: VerdictLevel = VerdictLevel.SKIP
    score: float = 0.0
    reasons: list[VerdictReason] = Field(default_factory=new_list)


# --- what the source could see ------------------------------------------------------------

# Why part of a PR is unknown: the source's own reasons (`IncompleteReason`) and the
# file-list gaps the coverage analyzer tells apart (`CoverageGap`), one vocabulary.
GapCode = IncompleteReason | CoverageGap
FileListState = Literal["complete", "partial", "unknown"]


class CoverageFacts(_Fact):
    """What the source could see of this PR. What was never fetched is unknown, not absent:
    renderers say "not available" rather than "none" when a part is missing."""

    # False when the source holds no review data at all (a git clone): no review, review
    # comment or conversation comment was ever fetched, so none can be said to be absent.
    review_data: bool = True
    file_list: FileListState = "complete"
    files_listed: int = 0
    files_expected: int | None = None  # what the source says the PR changed, when it says
    gaps: list[GapCode] = Field(default_factory=new_list)
    # The PR landed in several commits of one title and number ("number-collision"): the
    # other parts' SHAs and the files they changed, whose diffs are not in the record.
    missing_commits: list[str] = Field(default_factory=new_list, exclude_if=lambda value: not value)
    missing_files: int = Field(default=0, exclude_if=lambda value: not value)

    @property
    def files_known(self) -> bool:
        """True when claims about what the PR does not touch may rest on the file list."""
        return self.file_list == "complete"


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
    # Filled by the cross-PR pass (pipeline/lineage.py) once every PR is analyzed: what later
    # (or earlier) PRs did to this one. Left out of the JSON while empty.
    lineage: LineageFacts = Field(default_factory=LineageFacts, exclude_if=lambda value: value.is_empty())
    # Filled after analysis from the clone (pipeline/origins.py): where a fix's changed lines
    # came from. None: not looked (not a fix, no clone, or nothing to blame).
    origins: LineOrigins | None = Field(default=None, exclude_if=lambda value: value is None)
    coverage: CoverageFacts = Field(default_factory=CoverageFacts)
