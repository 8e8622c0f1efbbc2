"""The dependency ledger: every constraint change of a package, in merge order, with its PR.

One `LedgerEntry` is one `DependencyChange` of one merged PR. A `LedgerLink` places one change
of a PR between its predecessor and successor for the same package in the same file.
"""

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from prdigest.models.factories import new_list


def canonical_package(name: str) -> str:
    """The name the ledger and watches know a package by: a Python distribution's canonical
    form (PEP 503: ``NumPy`` = ``numpy``); a name with a path in it (a Go module
    ``golang.org/x/net``, an npm scope ``@types/node``) as written, since its dots matter."""
    name = name.strip()
    if "/" in name:
        return name
    from packaging.utils import canonicalize_name  # only PRs with dependency changes need it

    return str(canonicalize_name(name))


class LedgerEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    repository: str
    number: int
    title: str
    merged_at: datetime | None = None
    path: str
    package: str
    before: str | None = Field(default=None, description="the requirement before; null when the PR added it")
    after: str | None = Field(default=None, description="the requirement after; null when the PR removed it")
    kinds: list[str] = Field(default_factory=new_list)
    scope: str = "unknown"
    condition: str | None = None
    replaced_by: str | None = None


class LedgerLink(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    package: str
    path: str
    previous: LedgerEntry | None = Field(default=None, description="the last earlier change in this file")
    next: LedgerEntry | None = Field(default=None, description="the first later change in this file")
