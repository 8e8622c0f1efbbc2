"""The reading feed of one repository: one item per PR, newest first, verdict first then why.

`prdigest.render.feed.build_feed` fills it; the renderers (Markdown, HTML, JSON, Atom) lay it
out. The JSON form is versioned by `FEED_SCHEMA_VERSION`.
"""

from datetime import datetime

from pydantic import Field

from prdigest.models.factories import new_list
from prdigest.models.facts import VerdictName
from prdigest.models.narrative import NarratorName
from prdigest.models.report import PrintablePart
from prdigest.words import Lang

FEED_SCHEMA_VERSION = 1


class FeedItem(PrintablePart):
    repository: str
    number: int
    title: str = Field(description="in the output language when an LLM wrote it, else the PR's own title")
    original_title: str
    url: str | None = None
    author: str | None = None
    state: str
    merged_at: datetime | None = None
    created_at: datetime | None = None
    verdict: VerdictName | None = Field(description="None when the item could not be written (see paragraph)")
    verdict_label: str
    paragraph: str = Field(description="opens with the verdict label, then says why (or why it could not be written)")
    one_line: str = ""
    narrator: NarratorName = "extractive"
    gaps: list[str] = Field(
        default_factory=new_list, description="what the source could not see (file list, review data), as sentences"
    )

    @property
    def when(self) -> datetime | None:
        return self.merged_at or self.created_at


class Feed(PrintablePart):
    schema_version: int = FEED_SCHEMA_VERSION
    repository: str
    lang: Lang
    since: datetime | None = None
    until: datetime | None = None
    updated: datetime | None = Field(default=None, description="time of the newest item")
    items: list[FeedItem] = Field(default_factory=new_list)
