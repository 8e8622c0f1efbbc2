"""Watches on the web: ``/watch`` lists them and holds the form that creates one (the one
write this server takes: same-origin POST with a double-submitted CSRF token, see
`prdigest.web.security`); ``/watch/{name}`` (+ ``.json``, ``/feed.atom``) shows what the
watch has not delivered yet, or what is dated ``since`` a day. Viewing marks nothing read:
only ``prdigest digest --mark-read`` or ``--send`` do."""

from __future__ import annotations

from datetime import UTC, datetime, time
from typing import Annotated
from urllib.parse import parse_qs

from fastapi import APIRouter, Path, Query, Request
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse, RedirectResponse, Response

from prdigest.errors import ConfigError, NotFound
from prdigest.models.watch import Digest, Watch
from prdigest.pipeline.digest import build_digest
from prdigest.pipeline.watch_rules import LEVELS, create_watch, new_watch
from prdigest.render.digest_atom import render_digest_atom
from prdigest.render.digest_words import move_sentence
from prdigest.render.formats import FEED_FORMATS
from prdigest.render.site_links import watch_path
from prdigest.store import watch_store
from prdigest.web.context import WebContext, web_context
from prdigest.web.errors import ERROR_RESPONSES
from prdigest.web.negotiation import wants_json
from prdigest.web.params import LangParam
from prdigest.web.schemas import WatchesPage, WatchItem
from prdigest.web.security import CSRF_COOKIE, CSRF_FIELD, csrf_matches, new_csrf_token
from prdigest.web.templating import with_query
from prdigest.words import DEFAULT_LANG, Lang, labels, languages

router = APIRouter()

WatchName = Annotated[str, Path(max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")]
SinceParam = Annotated[str | None, Query(pattern=r"^(\d{4}-\d{2}-\d{2})?$", description="first day, YYYY-MM-DD")]
_MAX_FORM = 64 * 1024
_FIELDS = ("name", "repository", "paths", "packages", "symbols", "people", "lang", "min_level")


def _since(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        day = datetime.strptime(value, "%Y-%m-%d").date()
    except ValueError as exc:
        raise HTTPException(422, f"since: not a date (YYYY-MM-DD): {value!r}") from exc
    return datetime.combine(day, time.min, tzinfo=UTC)


def _site(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def load_digest(context: WebContext, request: Request, name: str, lang: Lang | None, since: str | None) -> Digest:
    watch = watch_store.get_watch(context.store, name)
    if lang is not None:
        watch = watch.model_copy(update={"lang": lang})
    llm = context.settings.llm if context.options.narrate_with_llm else None
    return build_digest(context.store, watch, _site(request), llm, since=_since(since)).digest


def _watch_item(watch: Watch) -> WatchItem:
    page = watch_path(watch.name)
    return WatchItem(
        name=watch.name,
        repository=watch.repository,
        lang=watch.lang,
        min_level=watch.min_level.value,
        paths=list(watch.paths),
        packages=list(watch.packages),
        symbols=list(watch.symbols),
        people=list(watch.people),
        last_read_at=watch.last_read_at,
        url=with_query(page, lang=watch.lang),
        atom_url=with_query(page + "/feed.atom", lang=watch.lang),
    )


def _watches_page(context: WebContext, lang: Lang) -> WatchesPage:
    return WatchesPage(lang=lang, watches=[_watch_item(w) for w in watch_store.list_watches(context.store)])


def _form_page(
    context: WebContext,
    lang: Lang,
    *,
    error: str | None = None,
    values: dict[str, str] | None = None,
    status: int = 200,
) -> Response:
    token = new_csrf_token()
    response = context.renderer.page(
        "watches.html",
        status_code=status,
        lang=lang,
        page=_watches_page(context, lang),
        path="/watch",
        csrf_field=CSRF_FIELD,
        csrf_token=token,
        levels=LEVELS,
        level_label=labels(lang).verdict,
        error=error,
        values=values or {},
    )
    # Strict: a cross-site page can neither send it nor read it (the form's copy is the check).
    response.set_cookie(CSRF_COOKIE, token, httponly=True, samesite="strict", path="/watch")
    return response


@router.get("/watch.json", response_model=WatchesPage, summary="The watches")
async def watches_json(request: Request, lang: LangParam = DEFAULT_LANG) -> WatchesPage:
    return _watches_page(web_context(request), lang)


@router.get("/watch", include_in_schema=False)
async def watches_html(request: Request, lang: LangParam = DEFAULT_LANG) -> Response:
    context = web_context(request)
    if wants_json(request):
        return JSONResponse(_watches_page(context, lang).model_dump(mode="json"))
    return _form_page(context, lang)


def _lines(text: str) -> list[str]:
    return [part.strip() for line in text.splitlines() for part in line.split(",") if part.strip()]


@router.post("/watch", include_in_schema=False)
async def create_watch_from_form(request: Request) -> Response:
    context = web_context(request)
    body = await request.body()
    if len(body) > _MAX_FORM:
        raise HTTPException(413, "the form is too large")
    form = {key: values[0] for key, values in parse_qs(body.decode("utf-8", "replace")).items() if values}
    lang_code = form.get("lang", DEFAULT_LANG)
    lang = Lang(lang_code) if lang_code in languages() else DEFAULT_LANG
    if not csrf_matches(request.cookies.get(CSRF_COOKIE), form.get(CSRF_FIELD)):
        raise HTTPException(403, "the form is stale or was not sent from this server's page: reload it and try again")
    values = {key: form.get(key, "") for key in _FIELDS}
    try:
        watch = new_watch(
            values["name"].strip(),
            values["repository"].strip(),
            paths=_lines(values["paths"]),
            packages=_lines(values["packages"]),
            symbols=_lines(values["symbols"]),
            people=_lines(values["people"]),
            lang=lang,
            min_level=values["min_level"] or "skip",
        )
        await run_in_threadpool(create_watch, context.store, watch)
    except (ConfigError, NotFound) as exc:
        return _form_page(context, lang, error=str(exc), values=values, status=422)
    return RedirectResponse(with_query(watch_path(watch.name), lang=watch.lang), status_code=303)


@router.get("/watch/{name}.json", response_model=Digest, responses=ERROR_RESPONSES, summary="A watch's digest")
async def watch_json(
    request: Request, name: WatchName, lang: LangParam | None = None, since: SinceParam = None
) -> Response:
    digest = await run_in_threadpool(load_digest, web_context(request), request, name, lang, since)
    return JSONResponse(digest.model_dump(mode="json"))


@router.get("/watch/{name}/feed.atom", include_in_schema=False)
async def watch_atom(request: Request, name: WatchName, lang: LangParam | None = None) -> Response:
    digest = await run_in_threadpool(load_digest, web_context(request), request, name, lang, None)
    self_url = _site(request) + with_query(watch_path(name) + "/feed.atom", lang=digest.lang)
    document = render_digest_atom(digest, self_url=self_url)
    return Response(document.encode("utf-8"), media_type=FEED_FORMATS["atom"].media_type)


@router.get("/watch/{name}", include_in_schema=False)
async def watch_html(
    request: Request, name: WatchName, lang: LangParam | None = None, since: SinceParam = None
) -> Response:
    context = web_context(request)
    digest = await run_in_threadpool(load_digest, context, request, name, lang, since)
    if wants_json(request):
        return JSONResponse(digest.model_dump(mode="json"))
    here = watch_path(name)
    return context.renderer.page(
        "watch.html",
        lang=digest.lang,
        digest=digest,
        path=here,
        since=since or "",
        moves=[move_sentence(entry, digest.lang) for entry in digest.moves],
        atom_url=with_query(here + "/feed.atom", lang=digest.lang),
        json_url=with_query(here + ".json", lang=digest.lang, since=since),
    )
