"""`create_app`: the read-only web UI and JSON API over one store.

Configuration comes in as arguments; per-app state (caches, the template renderer) lives
on ``app.state.web``. Every page has a JSON twin (same URL + ``.json``, or
``Accept: application/json``); only the ``.json`` routes are in the OpenAPI document.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio.to_thread
from fastapi import FastAPI
from starlette.staticfiles import StaticFiles

from prdigest import __version__
from prdigest.config import Settings
from prdigest.store.store import Store
from prdigest.web import (
    routes_atom,
    routes_deps,
    routes_feed,
    routes_queue,
    routes_report,
    routes_repos,
    routes_search,
    routes_watch,
)
from prdigest.web.context import WebContext, WebOptions
from prdigest.web.errors import install_error_handlers
from prdigest.web.negotiation import VaryAcceptMiddleware
from prdigest.web.security import SecurityHeadersMiddleware
from prdigest.web.templating import Renderer, make_environment

STATIC_DIR = Path(__file__).parent / "static"

__all__ = ["WebOptions", "create_app"]


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    # Count the filter-form facets before the first request, then keep them fresh off the
    # request path (see prdigest.web.facets).
    context = web_context_of(app)
    await anyio.to_thread.run_sync(context.facets.start)
    try:
        yield
    finally:
        await anyio.to_thread.run_sync(context.facets.stop)
        context.generation.close()


def web_context_of(app: FastAPI) -> WebContext:
    context = app.state.web
    assert isinstance(context, WebContext)
    return context


def create_app(store: Store, settings: Settings | None = None, options: WebOptions | None = None) -> FastAPI:
    app = FastAPI(
        lifespan=_lifespan,
        title="prdigest",
        version=__version__,
        description=(
            "API over analyzed pull requests: feeds, reports, lineage, search and watches "
            "(read-only but for creating a watch from the web form)."
        ),
        docs_url=None,  # the Swagger page needs inline script, which the CSP forbids
        redoc_url=None,
    )
    app.state.web = WebContext(
        store=store,
        settings=settings or Settings(),
        options=options or WebOptions(),
        renderer=Renderer(make_environment()),
    )
    install_error_handlers(app)
    # Order matters: the .json routes are registered before the HTML routes they shadow.
    routes = (
        routes_repos,
        routes_search,
        routes_atom,
        routes_deps,
        routes_report,
        routes_feed,
        routes_queue,
        routes_watch,
    )
    for module in routes:
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.add_middleware(VaryAcceptMiddleware)
    app.add_middleware(SecurityHeadersMiddleware)
    return app
