"""Query parameters shared by the routes. Empty form fields mean "no filter"."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Annotated

from fastapi import Path, Query
from starlette.exceptions import HTTPException

from prdigest.web.schemas import FeedFilters, Length, as_verdict
from prdigest.words import DEFAULT_LANG, Lang, languages

# The languages are the folders of prdigest.words: the pattern lets OpenAPI say which.
LangParam = Annotated[
    Lang, Query(pattern=f"^({'|'.join(re.escape(code) for code in languages())})$", description="output language")
]
LengthParam = Annotated[Length, Query(description="full or brief report")]
PageParam = Annotated[int, Query(ge=1, le=10_000, description="page number, from 1")]
NumberParam = Annotated[int, Path(ge=1, le=2**31 - 1, description="pull request number")]
OwnerParam = Annotated[str, Path(max_length=100)]
NameParam = Annotated[str, Path(max_length=100)]

_DATE = r"^(\d{4}-\d{2}-\d{2})?$"
_VERDICT = r"^(read-in-depth|quick-read|skip)?$"


@dataclass(frozen=True)
class FeedQuery:
    filters: FeedFilters
    lang: Lang
    page: int


def _date(value: str | None, name: str) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise HTTPException(422, f"{name}: not a date (YYYY-MM-DD): {value!r}") from exc


def _text(value: str | None) -> str | None:
    stripped = (value or "").strip()
    return stripped or None


async def feed_query(
    verdict: Annotated[str | None, Query(pattern=_VERDICT, description="read-in-depth, quick-read or skip")] = None,
    risk: Annotated[str | None, Query(max_length=200, description="risk tag id")] = None,
    module: Annotated[str | None, Query(max_length=200)] = None,
    author: Annotated[str | None, Query(max_length=200)] = None,
    since: Annotated[str | None, Query(pattern=_DATE, description="first day, YYYY-MM-DD")] = None,
    until: Annotated[str | None, Query(pattern=_DATE, description="last day, YYYY-MM-DD")] = None,
    lang: LangParam = DEFAULT_LANG,
    page: PageParam = 1,
) -> FeedQuery:
    filters = FeedFilters(
        verdict=as_verdict(verdict),
        risk=_text(risk),
        module=_text(module),
        author=_text(author),
        since=_date(since, "since"),
        until=_date(until, "until"),
    )
    return FeedQuery(filters=filters, lang=lang, page=page)
