"""The repositories page: ``/repos`` and ``/repos.json``."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from prdigest.web.context import WebContext, web_context
from prdigest.web.negotiation import wants_json
from prdigest.web.params import LangParam
from prdigest.web.schemas import RepositoriesPage, RepositoryItem
from prdigest.web.templating import repo_path, with_query
from prdigest.words import DEFAULT_LANG, Lang

router = APIRouter()


def load_repositories(context: WebContext, lang: Lang) -> RepositoriesPage:
    rows = context.facets.repositories()
    return RepositoriesPage(
        lang=lang,
        repositories=[
            RepositoryItem(
                repository=r.repository,
                pull_requests=r.pull_requests,
                analyzed=r.analyzed,
                latest=r.latest,
                url=with_query(repo_path(r.repository), lang=lang),
            )
            for r in rows
        ],
    )


@router.get("/", include_in_schema=False)
async def home(request: Request) -> Response:
    target = with_query("/repos", lang=request.query_params.get("lang"))
    return RedirectResponse(target, status_code=307)


@router.get("/repos.json", response_model=RepositoriesPage, summary="Repositories in the database")
async def repositories_json(request: Request, lang: LangParam = DEFAULT_LANG) -> RepositoriesPage:
    return load_repositories(web_context(request), lang)


@router.get("/repos", include_in_schema=False)
async def repositories_html(request: Request, lang: LangParam = DEFAULT_LANG) -> Response:
    context = web_context(request)
    page = load_repositories(context, lang)
    if wants_json(request):
        return JSONResponse(page.model_dump(mode="json"))
    return context.renderer.page("repositories.html", lang=lang, page=page, path="/repos")
