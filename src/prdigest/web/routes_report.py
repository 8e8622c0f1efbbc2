"""A PR's report (full/brief, zh/en) and its lineage chain, each with a JSON twin."""

from __future__ import annotations

from fastapi import APIRouter, Request
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.responses import HTMLResponse, JSONResponse, Response

from prdigest.store.read_models import ReportStamp, report_stamp
from prdigest.web.context import WebContext, web_context
from prdigest.web.errors import ERROR_RESPONSES
from prdigest.web.lineage_view import lineage
from prdigest.web.negotiation import wants_json
from prdigest.web.params import LangParam, LengthParam, NameParam, NumberParam, OwnerParam
from prdigest.web.report_view import build_report_page
from prdigest.web.schemas import Length, LineagePage, ReportPage
from prdigest.web.templating import pr_path, repo_path, with_query
from prdigest.words import DEFAULT_LANG, Lang, languages

router = APIRouter()
ReportKey = tuple[ReportStamp, Lang, Length]


def report_key(context: WebContext, repository: str, number: int, lang: Lang, length: Length) -> ReportKey:
    return (report_stamp(context.store, repository, number), lang, length)


def build_report(
    context: WebContext, repository: str, number: int, lang: Lang, length: Length
) -> tuple[ReportKey, ReportPage, Markup]:
    """Build the report (may analyze or narrate: run it in a worker thread) and cache it."""
    configured = context.settings.llm
    llm = configured if context.options.narrate_with_llm else None
    shown_model = configured.model if configured is not None else None
    result = build_report_page(context.store, llm, repository, number, lang, length, shown_model=shown_model)
    # Facts or prose may have been computed just now: key on the state after building.
    key = report_key(context, repository, number, lang, length)
    context.report_cache.put(key, result)
    return (key, *result)


async def load_report_with_html(
    context: WebContext, repository: str, number: int, lang: Lang, length: Length
) -> tuple[ReportKey, ReportPage, Markup]:
    """The report and its HTML, cached on everything they are built from.

    A cached report costs one indexed query on the event loop; building one (facts,
    narration, perhaps an LLM call) goes to a worker thread.
    """
    key = report_key(context, repository, number, lang, length)
    cached = context.report_cache.get(key)
    if isinstance(cached, tuple):
        page, html = cached
        return key, page, html
    return await run_in_threadpool(build_report, context, repository, number, lang, length)


@router.get(
    "/repos/{owner}/{name}/pulls/{number}.json",
    response_model=ReportPage,
    responses=ERROR_RESPONSES,
    summary="A pull request's report",
)
async def report_json(
    request: Request,
    owner: OwnerParam,
    name: NameParam,
    number: NumberParam,
    lang: LangParam = DEFAULT_LANG,
    length: LengthParam = "full",
) -> ReportPage:
    return (await load_report_with_html(web_context(request), f"{owner}/{name}", number, lang, length))[1]


@router.get("/repos/{owner}/{name}/pulls/{number}", include_in_schema=False)
async def report_html(
    request: Request,
    owner: OwnerParam,
    name: NameParam,
    number: NumberParam,
    lang: LangParam = DEFAULT_LANG,
    length: LengthParam = "full",
) -> Response:
    context = web_context(request)
    repository = f"{owner}/{name}"
    as_json = wants_json(request)
    if not as_json:
        # The whole page depends on nothing but the report's key: serve it as rendered before.
        rendered = context.page_cache.get(report_key(context, repository, number, lang, length))
        if rendered is not None:
            return HTMLResponse(rendered)
    key, page, html = await load_report_with_html(context, repository, number, lang, length)
    if as_json:
        return JSONResponse(page.model_dump(mode="json"))
    here = pr_path(page.repository, page.number)
    rendered = context.renderer.html(
        "report.html",
        lang=lang,
        page=page,
        body=html,
        path=here,
        feed_url=with_query(repo_path(page.repository), lang=lang),
        lineage_url=with_query(here + "/lineage", lang=lang),
        switch={
            **{code: with_query(here, lang=code, length=length) for code in languages()},
            "full": with_query(here, lang=lang, length="full"),
            "brief": with_query(here, lang=lang, length="brief"),
        },
    )
    context.page_cache.put(key, rendered)
    return HTMLResponse(rendered)


def load_lineage(context: WebContext, repository: str, number: int, lang: Lang) -> LineagePage:
    pr_title = report_title(context, repository, number)
    links = lineage(context.store, repository, number)
    return LineagePage(repository=repository, number=number, title=pr_title, lang=lang, links=links)


def report_title(context: WebContext, repository: str, number: int) -> str:
    from prdigest.store.facts_store import titles

    found = titles(context.store, repository, [number])
    if number not in found:
        from prdigest.errors import NotFound

        raise NotFound(f"no pull request {repository}#{number} in the database")
    return found[number]


@router.get(
    "/repos/{owner}/{name}/pulls/{number}/lineage.json",
    response_model=LineagePage,
    responses=ERROR_RESPONSES,
    summary="A pull request's lineage chain",
)
def lineage_json(
    request: Request, owner: OwnerParam, name: NameParam, number: NumberParam, lang: LangParam = DEFAULT_LANG
) -> LineagePage:
    return load_lineage(web_context(request), f"{owner}/{name}", number, lang)


@router.get("/repos/{owner}/{name}/pulls/{number}/lineage", include_in_schema=False)
def lineage_html(
    request: Request, owner: OwnerParam, name: NameParam, number: NumberParam, lang: LangParam = DEFAULT_LANG
) -> Response:
    context = web_context(request)
    page = load_lineage(context, f"{owner}/{name}", number, lang)
    if wants_json(request):
        return JSONResponse(page.model_dump(mode="json"))
    return context.renderer.page(
        "lineage.html",
        lang=lang,
        page=page,
        path=pr_path(page.repository, page.number) + "/lineage",
        report_url=with_query(pr_path(page.repository, page.number), lang=lang),
    )
