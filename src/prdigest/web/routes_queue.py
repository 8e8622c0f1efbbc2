"""The work queue page: ``/queue`` and ``/queue.json``: followed repositories with how their
last pass went, and the work parked after its retries failed (read from the database, so it
needs no broker)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.responses import JSONResponse, Response

from prdigest.store import follow_store
from prdigest.web.context import WebContext, web_context
from prdigest.web.negotiation import wants_json
from prdigest.web.params import LangParam
from prdigest.web.schemas import FollowItem, ParkedItem, QueuePage
from prdigest.words import DEFAULT_LANG, Lang

router = APIRouter()


def load_queue(context: WebContext, lang: Lang) -> QueuePage:
    follows = [
        FollowItem(
            repository=f.repository,
            source=f.source,
            every_seconds=f.every_seconds,
            last_run_at=f.last_run_at,
            last_status=f.last_status,
            last_error=f.last_error,
        )
        for f in follow_store.list_follows(context.store)
    ]
    parked = [
        ParkedItem(
            task=p.task,
            repository=p.repository,
            subject=p.subject,
            error=p.error,
            attempts=p.attempts,
            parked_at=p.parked_at,
        )
        for p in follow_store.list_parked(context.store)
    ]
    return QueuePage(lang=lang, follows=follows, parked=parked)


@router.get("/queue.json", response_model=QueuePage, summary="Followed repositories and parked work")
async def queue_json(request: Request, lang: LangParam = DEFAULT_LANG) -> QueuePage:
    return load_queue(web_context(request), lang)


@router.get("/queue", include_in_schema=False)
async def queue_html(request: Request, lang: LangParam = DEFAULT_LANG) -> Response:
    context = web_context(request)
    page = load_queue(context, lang)
    if wants_json(request):
        return JSONResponse(page.model_dump(mode="json"))
    return context.renderer.page("queue.html", lang=lang, page=page, path="/queue")
