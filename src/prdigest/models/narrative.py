"""Narrative: the prose of a report, written on top of `Facts` by a narrator.

Two narrators fill this model: the extractive one (default, offline, built from the facts
and the PR's own words) and the LLM one (any OpenAI-compatible endpoint). The renderer
combines a `Narrative` with the `PullRequest` and its `Facts` into a report; everything
that can be known for sure (key file categories, symbols, risk tags, verdict) comes from
the facts, never from this prose.
"""

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from prdigest.models.factories import new_list
from prdigest.words import Lang

Length = Literal["full", "brief"]
NarratorName = Literal["extractive", "llm"]
SectionName = Literal[
    "summary",
    "motivation",
    "implementation",
    "key_files",
    "key_code",
    "discussion",
    "risks",
    "related",
    "feed",
    "judgement",
]
SECTIONS: tuple[SectionName, ...] = get_args(SectionName)
# The prose fields of a `Narrative` by section: what a narrator writes, and what falls back
# to extractive text together when an LLM's section is invalid.
SECTION_FIELDS: dict[SectionName, tuple[str, ...]] = {
    "summary": ("one_line", "recommendation"),
    "motivation": ("motivation",),
    "implementation": ("implementation",),
    "key_files": ("file_roles",),
    "key_code": ("excerpt_notes",),
    "discussion": ("discussion_highlights", "thread_lines"),
    "risks": ("risks", "impact"),
    "related": ("related",),
    "feed": ("feed_title", "feed_paragraph"),
    "judgement": ("judgement",),
}


class _Prose(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class ImplementationStep(_Prose):
    title: str
    detail: str


class FileRole(_Prose):
    path: str
    role: str


class ExcerptNote(_Prose):
    path: str
    note: str


class DiscussionHighlight(_Prose):
    topic: str
    who: str  # e.g. "gemini-code-assist" or "mgoin vs mmangkad"
    summary: str


class ThreadLine(_Prose):
    topic: str
    kind: str
    outcome: str
    note: str = ""


class Impact(_Prose):
    users: str = ""
    system: str = ""
    team: str = ""


class RelatedNote(_Prose):
    repository: str
    number: int
    title: str = ""
    relation: str
    note: str
    kind: str = "pr"  # pr | issue | unknown: what the target is, for "PR #N" / "Issue #N" / "#N"
    found_in: str = ""  # where the link was found (git-blame: the note holds blame's counts)


class JudgementPoint(_Prose):
    """One judgement of the model (a lesson, what to watch, an action) and the fact ids it
    rests on (the ids the prompt gave the facts, e.g. ``risk:version-lock``)."""

    text: str
    facts: list[str] = Field(default_factory=new_list)


class ArguedVerdict(_Prose):
    """The model's case for reading the PR one level above or below the facts' verdict; the
    facts' verdict stays the report's, this is shown beside it."""

    level: str  # a `VerdictLevel` value next to the facts' one
    reason: str
    facts: list[str] = Field(default_factory=new_list)


class Judgement(_Prose):
    lesson: JudgementPoint | None = None  # what a reader learns; None: nothing worth saying
    watch_next: JudgementPoint | None = None
    action: JudgementPoint | None = None
    verdict: ArguedVerdict | None = None

    @property
    def empty(self) -> bool:
        return not (self.lesson or self.watch_next or self.action or self.verdict)


class StepCost(_Prose):
    """One call of a narration (a file-group summary, the synthesis, a retry)."""

    step: str  # "group 1/3", "synthesis", "synthesis retry", "sections of model-b"
    model: str = ""
    tokens_in: int = 0
    tokens_out: int = 0
    seconds: float = 0.0
    cached: bool = False  # answered from the store, no call made


class NarrationCost(_Prose):
    model: str | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    calls: int = 0
    seconds: float = 0.0
    # Per call; left out of the stored JSON when empty (offline narratives never have any).
    steps: list[StepCost] = Field(default_factory=new_list, exclude_if=lambda steps: not steps)


class Narrative(_Prose):
    lang: Lang
    length: Length
    narrator: NarratorName = "extractive"
    one_line: str
    recommendation: str
    motivation: str
    implementation: list[ImplementationStep] = Field(default_factory=new_list)
    file_roles: list[FileRole] = Field(default_factory=new_list)
    excerpt_notes: list[ExcerptNote] = Field(default_factory=new_list)
    discussion_highlights: list[DiscussionHighlight] = Field(default_factory=new_list)
    thread_lines: list[ThreadLine] = Field(default_factory=new_list)
    risks: list[str] = Field(default_factory=new_list)
    impact: Impact = Field(default_factory=Impact)
    related: list[RelatedNote] = Field(default_factory=new_list)
    feed_title: str
    feed_paragraph: str
    # The LLM's judgement (lesson, what to watch, action, argued verdict); offline: None, and
    # left out of the JSON so offline narratives stay as they were.
    judgement: Judgement | None = Field(default=None, exclude_if=lambda value: value is None)
    # Sections the LLM narrator could not write validly; they hold extractive text.
    fallback_sections: list[SectionName] = Field(default_factory=new_list)
    # What the LLM prompt left out to fit its token budget (paths, or "N more files").
    omitted_from_prompt: list[str] = Field(default_factory=new_list)
    # Unknown paths / symbols / PR numbers the validator removed from LLM prose.
    removed_mentions: int = 0
    # What grounding dropped of the LLM's judgement, each naming its rule (`narrate.llm.judgement`).
    grounding_rejections: list[str] = Field(default_factory=new_list, exclude_if=lambda value: not value)
    # Why the configured LLM's text is not used at all ("" when it is, or none was asked):
    # such a narrative is a fallback, tried again later (pipeline/narrate.py).
    llm_failure: str = ""
    llm_attempts: int = 0  # failed narrations in a row under this cache key (for the back-off)
    cost: NarrationCost = Field(default_factory=NarrationCost)
