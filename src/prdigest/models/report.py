"""The `Report`: every part of a full or brief report (see REPORT_FORMAT.md), ready to render.

`build_report` fills it from a `PullRequest`, its `Facts` (structure and truth) and a
`Narrative` (prose). Renderers (Markdown, JSON, HTML) only lay it out; its strings never hold
control characters (see `prdigest.text.printable`). The JSON form is
versioned by `REPORT_SCHEMA_VERSION`; ``docs/report.schema.json`` is generated from it.
"""

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, model_validator

from prdigest.models.factories import new_list
from prdigest.models.facts import Severity, VerdictName
from prdigest.models.narrative import Length, NarratorName
from prdigest.text import printable_values
from prdigest.words import Lang

REPORT_SCHEMA_VERSION = 1


class PrintablePart(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    # Every string of a report or feed comes from, or may quote, untrusted PR text (titles,
    # paths, LLM prose): control characters are neutralized once here, for every renderer.
    # One validator over the given values rather than one per field: pydantic inspects a
    # field validator once for every field it applies to, and a report's first validation
    # paid for that about a hundred times.
    @model_validator(mode="before")
    @classmethod
    def _printable(cls, data: object) -> object:
        if isinstance(data, dict):
            return {key: printable_values(value) for key, value in data.items()}
        return data


class Header(PrintablePart):
    repository: str
    number: int
    title: str
    state: str = Field(description="open | closed | merged")
    state_label: str
    author: str | None = None
    created_at: datetime | None = None
    merged_at: datetime | None = None
    url: str | None = None


class Summary(PrintablePart):
    one_line: str
    recommendation: str


class Step(PrintablePart):
    title: str
    detail: str


class KeyFile(PrintablePart):
    path: str
    previous_path: str | None = None
    status: str = "modified"
    module: str = Field(description="module id from the files analyzer")
    module_label: str = Field(description="module name in the output language")
    category: str
    type: str
    symbols: list[str] = Field(default_factory=new_list, description="changed symbols in this file, most telling first")
    symbols_more: int = Field(default=0, description="changed symbols of this file not listed in `symbols`")
    additions: int = 0
    deletions: int = 0
    role: str = ""


class KeySymbol(PrintablePart):
    name: str
    path: str
    kind: str
    change: str


class KeyExcerpt(PrintablePart):
    path: str
    role: str = ""
    language: str | None = None
    symbol: str | None = None
    start_line: int | None = None
    note: str = Field(default="", description="annotation of the excerpt in the output language")
    text: str = Field(description="unified-diff lines of the changed code, verbatim")
    truncated: bool = False


class Highlight(PrintablePart):
    topic: str
    who: str
    summary: str


class ThreadLine(PrintablePart):
    topic: str
    kind: str
    kind_label: str
    outcome: str
    outcome_label: str
    note: str = ""


class Discussion(PrintablePart):
    overview: str = Field(
        description="counts said plainly (review comments, bot notices, approvals), or that review data is unavailable"
    )
    review_data: bool = Field(
        default=True, description="false when the source holds no review data: the counts are unknown, not zero"
    )
    highlights: list[Highlight] = Field(default_factory=new_list)
    threads: list[ThreadLine] = Field(default_factory=new_list)
    review_comment_count: int = 0
    conversation_comment_count: int = 0
    bot_notice_count: int = 0
    approvals: list[str] = Field(default_factory=new_list)


class RiskTagItem(PrintablePart):
    tag: str
    label: str = Field(description="tag label in the output language")
    severity: Severity = "low"
    evidence: str = ""


class Impact(PrintablePart):
    users: str = ""
    system: str = ""
    team: str = ""


class RisksAndImpact(PrintablePart):
    risks: list[str] = Field(default_factory=new_list)
    impact: Impact = Field(default_factory=Impact)
    tags: list[RiskTagItem] = Field(default_factory=new_list)


class RelatedItem(PrintablePart):
    repository: str
    number: int
    title: str = ""
    relation: str
    relation_label: str
    note: str = ""
    kind: str = "pr"  # pr | issue | unknown
    target_label: str = ""  # "PR #12", "Issue #12", "o/r#12": how the target is named


class Coverage(PrintablePart):
    """What the source could not see. A claim that something is absent never rests on a gap."""

    review_data: bool = Field(default=True, description="false when the source holds no review data (a git history)")
    file_list: str = Field(default="complete", description="complete | partial | unknown")
    gaps: list[str] = Field(default_factory=new_list, description="gap codes: file-list-missing, ...")
    notes: list[str] = Field(default_factory=new_list, description="each gap as a sentence in the output language")


class LedgerStep(PrintablePart):
    number: int
    title: str = ""
    requirement: str | None = Field(default=None, description="the requirement that PR left; null when it removed it")


class DependencyHistoryItem(PrintablePart):
    """One dependency change of this PR, between its neighbours in the repository's ledger."""

    package: str
    path: str
    before: str | None = None
    after: str | None = None
    moved_from: list[str] = Field(
        default_factory=new_list, description="the files this PR moved the declaration from (removed there, added here)"
    )
    previous: LedgerStep | None = Field(default=None, description="the last earlier merged change (same file)")
    next: LedgerStep | None = Field(default=None, description="the first later merged change (same file)")
    merged: bool = Field(default=True, description="false: this PR is not merged, so it is not in the ledger")
    text: str = ""


class Verdict(PrintablePart):
    level: VerdictName
    label: str
    score: float = 0.0
    reasons: list[str] = Field(default_factory=new_list)
    paragraph: str = Field(default="", description="the feed paragraph: verdict first, then why")


class JudgementItem(PrintablePart):
    text: str
    facts: list[str] = Field(default_factory=new_list, description="ids of the facts the judgement rests on")


class ArguedVerdictItem(PrintablePart):
    """The narrator's case for one level above or below the facts' verdict (`Report.verdict`
    stays the facts')."""

    level: VerdictName
    label: str
    reason: str
    facts: list[str] = Field(default_factory=new_list)


class JudgementPart(PrintablePart):
    """What an LLM narrator judged on top of the facts, each point with the facts it rests on."""

    lesson: JudgementItem | None = Field(default=None, description="what a reader learns from the PR")
    watch_next: JudgementItem | None = None
    action: JudgementItem | None = Field(default=None, description="a concrete recommended action")
    argued_verdict: ArguedVerdictItem | None = None


class NarratorInfo(PrintablePart):
    narrator: NarratorName
    model: str | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    calls: int = 0
    seconds: float = 0.0
    fallback_sections: list[str] = Field(default_factory=new_list)
    removed_mentions: int = 0


class Report(PrintablePart):
    """One pull request's report in one language and length."""

    schema_version: int = REPORT_SCHEMA_VERSION
    lang: Lang
    length: Length
    header: Header
    coverage: Coverage = Field(default_factory=Coverage)
    summary: Summary
    motivation: str
    implementation: list[Step] = Field(default_factory=new_list)
    key_files: list[KeyFile] = Field(default_factory=new_list)
    key_symbols: list[KeySymbol] = Field(default_factory=new_list, description="empty: none identified")
    key_symbols_more: int = Field(default=0, description="changed symbols not listed in `key_symbols`")
    key_code: list[KeyExcerpt] = Field(default_factory=new_list)
    discussion: Discussion
    risks: RisksAndImpact
    related: list[RelatedItem] = Field(default_factory=new_list)
    dependency_history: list[DependencyHistoryItem] = Field(default_factory=new_list)
    verdict: Verdict
    # Only an LLM narrator judges: absent (not null) in offline reports.
    judgement: JudgementPart | None = Field(default=None, exclude_if=lambda value: value is None)
    narrator: NarratorInfo
    omitted_from_prompt: list[str] = Field(default_factory=new_list)
