"""A repository's reading feed: ``/repos/{owner}/{name}`` (+ ``.json``), filtered and paged.

The routes are ``async``: a page is a few bounded index walks (well under a millisecond on
SQLite), cheaper to run on the event loop than to hand to a worker thread and back.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from markupsafe import Markup
from starlette.responses import JSONResponse, Response

from prdigest.store.feed_query import FeedFilter, feed_page
from prdigest.text import printable
from prdigest.web.context import WebContext, web_context
from prdigest.web.errors import ERROR_RESPONSES
from prdigest.web.negotiation import wants_json
from prdigest.web.page_cache import request_key, serve_cached
from prdigest.web.params import FeedQuery, NameParam, OwnerParam, feed_query
from prdigest.web.schemas import FeedFilters, FeedItem, FeedPage, as_verdict
from prdigest.web.templating import pr_path, repo_path, with_query
from prdigest.words import languages

router = APIRouter()


def load_feed(context: WebContext, repository: str, query: FeedQuery) -> FeedPage:
    size = context.options.page_size
    rows = feed_page(
        context.store,
        repository,
        _store_filter(query.filters),
        query.lang,
        limit=size + 1,
        offset=(query.page - 1) * size,
        model=context.settings.llm.model if context.settings.llm is not None else None,
    )
    risks, modules = context.facets.facets(repository)
    lang_query = f"?lang={query.lang}"  # a validated literal: nothing to encode
    items = [
        FeedItem(
            repository=repository,
            number=row.number,
            title=printable(row.title),
            state=row.state,
            author=_printable_or_none(row.author),
            date=row.date,
            verdict=as_verdict(row.verdict),
            score=row.score,
            risk_tags=[v for k, v in row.labels if k == "risk"],
            modules=[v for k, v in row.labels if k == "module"],
            feed_title=_printable_or_none(row.feed_title),
            feed_paragraph=_printable_or_none(row.feed_paragraph),
            one_line=_printable_or_none(row.one_line),
            reason=_printable_or_none(row.reason),
            additions=row.additions,
            deletions=row.deletions,
            url=pr_path(repository, row.number) + lang_query,
        )
        for row in rows[:size]
    ]
    return FeedPage(
        repository=repository,
        lang=query.lang,
        filters=query.filters,
        page=query.page,
        per_page=size,
        has_next=len(rows) > size,
        items=items,
        risk_tags=risks,
        modules=modules,
        atom_url=with_query(repo_path(repository) + "/feed.atom", lang=query.lang),
    )


def _store_filter(filters: FeedFilters) -> FeedFilter:
    return FeedFilter(
        verdict=filters.verdict,
        risk=filters.risk,
        module=filters.module,
        author=filters.author,
        since=filters.since,
        until=filters.until,
    )


def _printable_or_none(value: str | None) -> str | None:
    # Store text goes to HTML, JSON and Atom: control characters become U+FFFD (prdigest.text).
    return None if value is None else printable(value)


def page_link(page: FeedPage, number: int) -> str:
    f = page.filters
    return with_query(
        repo_path(page.repository),
        verdict=f.verdict,
        risk=f.risk,
        module=f.module,
        author=f.author,
        since=f.since,
        until=f.until,
        lang=page.lang,
        page=number if number > 1 else None,
    )


def _entry_key(item: FeedItem, lang: str) -> tuple[object, ...]:
    # Everything feed_item.html shows; any change to the PR, its facts or prose changes it.
    return (
        lang, item.repository, item.number, item.title, item.author, item.date, item.verdict,
        item.feed_title, item.feed_paragraph, item.one_line, item.reason, item.additions, item.deletions,
        tuple(item.risk_tags), tuple(item.modules),
    )  # fmt: skip


def render_entries(context: WebContext, page: FeedPage) -> list[Markup]:
    """Each item's <li>, from the fragment cache when nothing it shows has changed."""
    chip_base = with_query(repo_path(page.repository), lang=page.lang)
    entries: list[Markup] = []
    for item in page.items:
        key = _entry_key(item, page.lang)
        cached = context.fragment_cache.get(key)
        if cached is None:
            cached = str(context.renderer.fragment("feed_item.html", lang=page.lang, item=item, chip_base=chip_base))
            context.fragment_cache.put(key, cached)
        entries.append(Markup(cached))
    return entries


def feed_response(request: Request, repository: str, query: FeedQuery, as_json: bool) -> Response:
    """The feed page as HTML or JSON, from the page cache while the data has not changed."""
    context = web_context(request)
    # The filter form shows the facet counts: a new snapshot of them is a different page.
    key = request_key(request, as_json, context.facets.version)
    return serve_cached(
        context.generation, context.response_cache, key, lambda: build_feed(context, repository, query, as_json)
    )


def build_feed(context: WebContext, repository: str, query: FeedQuery, as_json: bool) -> Response:
    page = load_feed(context, repository, query)
    if as_json:
        return JSONResponse(page.model_dump(mode="json"))
    return context.renderer.page(
        "feed.html",
        lang=page.lang,
        page=page,
        entries=render_entries(context, page),
        path=repo_path(page.repository),
        previous_url=page_link(page, page.page - 1) if page.page > 1 else None,
        next_url=page_link(page, page.page + 1) if page.has_next else None,
        lang_url={lang: page_link(page.model_copy(update={"lang": lang}), page.page) for lang in languages()},
    )


@router.get(
    "/repos/{owner}/{name}.json", response_model=FeedPage, responses=ERROR_RESPONSES, summary="A repository's feed"
)
async def feed_json(
    request: Request, owner: OwnerParam, name: NameParam, query: Annotated[FeedQuery, Depends(feed_query)]
) -> Response:
    return feed_response(request, f"{owner}/{name}", query, as_json=True)


@router.get("/repos/{owner}/{name}", include_in_schema=False)
async def feed_html(
    request: Request, owner: OwnerParam, name: NameParam, query: Annotated[FeedQuery, Depends(feed_query)]
) -> Response:
    return feed_response(request, f"{owner}/{name}", query, as_json=wants_json(request))
