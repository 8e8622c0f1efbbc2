"""Watches and their digests: a reader's slice of one repository (paths, packages, symbols,
people) and what changed in it since they last read.

A `Watch` is what ``prdigest watch add`` stores; `WatchMatch` says why one PR is in the slice;
a `Digest` is what ``prdigest digest`` renders (Markdown, JSON, HTML, Atom, e-mail) or sends.
The JSON form is versioned by `DIGEST_SCHEMA_VERSION`.
"""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from prdigest.models.factories import new_list
from prdigest.models.facts import VerdictLevel, VerdictName
from prdigest.models.ledger import LedgerEntry
from prdigest.models.report import PrintablePart
from prdigest.words import Lang

DIGEST_SCHEMA_VERSION = 1

# Lowest first: a watch's ``min_level`` keeps the items at that level or above.
LEVEL_ORDER: tuple[VerdictLevel, ...] = (VerdictLevel.SKIP, VerdictLevel.QUICK_READ, VerdictLevel.READ_IN_DEPTH)

MatchKind = Literal["path", "package", "symbol", "author", "reviewer"]


class Watch(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    name: str
    repository: str
    paths: tuple[str, ...] = ()
    packages: tuple[str, ...] = ()  # canonical names (`models.ledger.canonical_package`)
    symbols: tuple[str, ...] = ()
    people: tuple[str, ...] = ()  # logins, as given
    lang: Lang
    min_level: VerdictLevel = VerdictLevel.SKIP
    created_at: datetime | None = None
    last_read_at: datetime | None = None

    def has_rules(self) -> bool:
        return bool(self.paths or self.packages or self.symbols or self.people)

    def keeps(self, level: VerdictLevel) -> bool:
        """Whether an item of this verdict is at the watch's ``min_level`` or above."""
        return LEVEL_ORDER.index(level) >= LEVEL_ORDER.index(self.min_level)


class WatchMatch(PrintablePart):
    """One reason a PR is in a watch: which rule matched and what in the PR it matched."""

    kind: MatchKind
    rule: str = Field(description="the watch's rule: a glob, package, symbol or login")
    subject: str = Field(description="what in the PR matched: a path, package, symbol or login")
    detail: str = Field(default="", description="how: the symbol's change, the dependency's change kinds")


class DigestItem(PrintablePart):
    repository: str
    number: int
    title: str
    url: str | None = None
    author: str | None = None
    state: str
    date: datetime | None = None
    verdict: VerdictName
    verdict_label: str
    one_line: str
    paragraph: str = Field(description="opens with the verdict label, then says why")
    matches: list[WatchMatch] = Field(default_factory=new_list)
    why: list[str] = Field(default_factory=new_list, description="the matches said in the digest's language")
    full_report_url: str
    brief_report_url: str


class Digest(PrintablePart):
    schema_version: int = DIGEST_SCHEMA_VERSION
    watch: str
    repository: str
    lang: Lang
    since: datetime | None = Field(default=None, description="--since; None: what was not delivered yet")
    unread: bool = True
    generated_at: datetime
    items: list[DigestItem] = Field(default_factory=new_list)
    moves: list[LedgerEntry] = Field(
        default_factory=new_list, description="the ledger's changes of watched packages in these PRs, in merge order"
    )
    watch_url: str = ""

    @property
    def empty(self) -> bool:
        return not self.items
