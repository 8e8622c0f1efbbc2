"""Search across titles, bodies, comments and reports: ``/search`` (+ ``.json``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from starlette.responses import JSONResponse, Response

from prdigest.store.search_store import search
from prdigest.text import printable
from prdigest.web.context import WebContext, web_context
from prdigest.web.errors import ERROR_RESPONSES
from prdigest.web.negotiation import wants_json
from prdigest.web.page_cache import request_key, serve_cached
from prdigest.web.params import LangParam, PageParam
from prdigest.web.schemas import SearchItem, SearchPage, as_verdict
from prdigest.web.templating import pr_path, printable_snippet, strip_marks, with_query
from prdigest.words import DEFAULT_LANG, Lang, languages

router = APIRouter()

QueryParam = Annotated[str, Query(max_length=200, description="words to find (all of them)")]
RepoParam = Annotated[str | None, Query(max_length=200, description="limit to OWNER/NAME")]


def load_search(context: WebContext, q: str, repo: str | None, lang: Lang, page: int) -> SearchPage:
    size = context.options.search_page_size
    repository = (repo or "").strip() or None
    hits = search(context.store, q, repository=repository, limit=size + 1, offset=(page - 1) * size)
    return SearchPage(
        query=q,
        repository=repository,
        lang=lang,
        page=page,
        per_page=size,
        has_next=len(hits) > size,
        items=[
            SearchItem(
                repository=h.repository,
                number=h.number,
                title=printable(h.title),
                state=h.state,
                verdict=as_verdict(h.verdict),
                date=h.merged_at or h.created_at,
                snippet=printable_snippet(h.snippet),
                url=with_query(pr_path(h.repository, h.number), lang=lang),
            )
            for h in hits[:size]
        ],
    )


def search_response(request: Request, q: str, repo: str | None, lang: Lang, page: int, as_json: bool) -> Response:
    """The search page as HTML or JSON, from the page cache while the data has not changed."""
    context = web_context(request)
    return serve_cached(
        context.generation,
        context.response_cache,
        request_key(request, as_json),
        lambda: build_search(context, q, repo, lang, page, as_json),
    )


def build_search(context: WebContext, q: str, repo: str | None, lang: Lang, page: int, as_json: bool) -> Response:
    result = load_search(context, q, repo, lang, page)
    if as_json:
        # The JSON twin gives plain text: the match markers are an HTML-page detail.
        for item in result.items:
            item.snippet = strip_marks(item.snippet)
        return JSONResponse(result.model_dump(mode="json"))

    def link(number: int) -> str:
        return with_query("/search", q=q, repo=result.repository, lang=lang, page=number if number > 1 else None)

    return context.renderer.page(
        "search.html",
        lang=lang,
        page=result,
        path="/search",
        previous_url=link(page - 1) if page > 1 else None,
        next_url=link(page + 1) if result.has_next else None,
        lang_url={other: with_query("/search", q=q, repo=result.repository, lang=other) for other in languages()},
    )


@router.get("/search.json", response_model=SearchPage, responses=ERROR_RESPONSES, summary="Full-text search")
async def search_json(
    request: Request, q: QueryParam = "", repo: RepoParam = None, lang: LangParam = DEFAULT_LANG, page: PageParam = 1
) -> Response:
    return search_response(request, q, repo, lang, page, as_json=True)


@router.get("/search", include_in_schema=False)
async def search_html(
    request: Request, q: QueryParam = "", repo: RepoParam = None, lang: LangParam = DEFAULT_LANG, page: PageParam = 1
) -> Response:
    return search_response(request, q, repo, lang, page, as_json=wants_json(request))
