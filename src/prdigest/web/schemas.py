"""Response models of the JSON API (they are also what the HTML templates render)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from prdigest.analyzers.lineage import LineageLink
from prdigest.models.facts import Facts
from prdigest.models.narrative import Narrative
from prdigest.words import Lang

Length = Literal["full", "brief"]
Verdict = Literal["read-in-depth", "quick-read", "skip"]


def _as_utc(value: datetime) -> datetime:
    # The store keeps naive UTC; the API says so explicitly (RFC 3339 needs an offset).
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


UtcDatetime = Annotated[datetime, AfterValidator(_as_utc)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorBody(_Model):
    error: str
    detail: str


class RepositoryItem(_Model):
    repository: str
    pull_requests: int
    analyzed: int
    latest: UtcDatetime | None = None
    url: str


class RepositoriesPage(_Model):
    lang: Lang
    repositories: list[RepositoryItem]


class FeedFilters(_Model):
    verdict: Verdict | None = None
    risk: str | None = None
    module: str | None = None
    author: str | None = None
    since: date | None = None
    until: date | None = None


class FeedItem(_Model):
    repository: str
    number: int
    title: str
    state: str
    author: str | None = None
    date: UtcDatetime | None = None
    verdict: Verdict | None = None
    score: float | None = None
    risk_tags: list[str] = Field(default_factory=list)
    modules: list[str] = Field(default_factory=list)
    feed_title: str | None = None
    feed_paragraph: str | None = None
    one_line: str | None = None
    reason: str | None = None
    additions: int = 0
    deletions: int = 0
    url: str


class FacetValue(_Model):
    value: str
    count: int


class FeedPage(_Model):
    repository: str
    lang: Lang
    filters: FeedFilters
    page: int
    per_page: int
    has_next: bool
    items: list[FeedItem]
    risk_tags: list[FacetValue] = Field(default_factory=list, description="risk tags seen in this repository")
    modules: list[FacetValue] = Field(default_factory=list, description="modules seen in this repository")
    atom_url: str


class LineagePage(_Model):
    repository: str
    number: int
    title: str
    lang: Lang
    links: list[LineageLink]


class ReportPage(_Model):
    repository: str
    number: int
    title: str
    state: str
    url: str | None = None
    lang: Lang
    length: Length
    verdict: Verdict | None = None
    risk_tags: list[str] = Field(default_factory=list)
    markdown: str = Field(description="the report as Markdown (untrusted text inside: sanitize before display)")
    facts: Facts | None = None
    narrative: Narrative | None = None
    lineage: list[LineageLink] = Field(default_factory=list)


class SearchItem(_Model):
    repository: str
    number: int
    title: str
    state: str
    verdict: Verdict | None = None
    date: UtcDatetime | None = None
    snippet: str = Field(description="plain text around the matches")
    url: str


class SearchPage(_Model):
    query: str
    repository: str | None = None
    lang: Lang
    page: int
    per_page: int
    has_next: bool
    items: list[SearchItem]


VERDICTS: tuple[Verdict, ...] = ("read-in-depth", "quick-read", "skip")


def as_verdict(value: object) -> Verdict | None:
    """``value`` as a `Verdict` when it is one (stored text is not trusted to be), else None."""
    for verdict in VERDICTS:
        if value == verdict:
            return verdict
    return None


class DepsPackageItem(_Model):
    package: str
    changes: int
    pull_requests: int
    url: str


class DepsPackagesPage(_Model):
    """The packages of a repository's dependency ledger, most changed first."""

    repository: str
    lang: Lang
    packages: list[DepsPackageItem]


class DepsEntry(_Model):
    number: int
    title: str
    merged_at: UtcDatetime | None = None
    path: str
    before: str | None = Field(default=None, description="the requirement before; null when the PR added it")
    after: str | None = Field(default=None, description="the requirement after; null when the PR removed it")
    kinds: list[str] = Field(default_factory=list)
    scope: str = Field(default="unknown", description="runtime | optional | build | dev | ci | unknown")
    condition: str | None = Field(default=None, description="the setup.py build switch choosing this specifier")
    replaced_by: str | None = None
    url: str


class DepsPackagePage(_Model):
    """Every change of one package in merged PRs, in merge order."""

    repository: str
    package: str
    lang: Lang
    entries: list[DepsEntry]


class FollowItem(_Model):
    repository: str
    source: str
    every_seconds: int
    last_run_at: UtcDatetime | None = None
    last_status: str | None = None
    last_error: str | None = None


class ParkedItem(_Model):
    task: str
    repository: str
    subject: str
    error: str
    attempts: int
    parked_at: UtcDatetime


class QueuePage(_Model):
    """Followed repositories and the work parked after its retries failed."""

    lang: Lang
    follows: list[FollowItem]
    parked: list[ParkedItem]


class WatchItem(_Model):
    """One watch in the list of ``/watch``."""

    name: str
    repository: str
    lang: Lang
    min_level: str
    paths: list[str]
    packages: list[str]
    symbols: list[str]
    people: list[str]
    last_read_at: datetime | None = None
    url: str
    atom_url: str


class WatchesPage(_Model):
    lang: Lang
    watches: list[WatchItem]
