"""Errors as HTTP: NotFound → 404, bad parameters → 422, each as JSON or a small HTML page."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from prdigest.errors import NotFound, PrdigestError, StoreError
from prdigest.web.context import web_context
from prdigest.web.negotiation import wants_json
from prdigest.web.schemas import ErrorBody
from prdigest.words import DEFAULT_LANG, Lang, languages

ERROR_RESPONSES: dict[int | str, dict[str, object]] = {
    404: {"model": ErrorBody, "description": "unknown repository or pull request"},
    422: {"model": ErrorBody, "description": "invalid parameter"},
}


def _lang_of(request: Request) -> Lang:
    asked = request.query_params.get("lang", "")
    return Lang(asked) if asked in languages() else DEFAULT_LANG


def error_response(request: Request, status: int, error: str, detail: str) -> Response:
    body = ErrorBody(error=error, detail=detail)
    if request.url.path.endswith(".json") or wants_json(request):
        return JSONResponse(body.model_dump(), status_code=status)
    renderer = web_context(request).renderer
    return renderer.page("error.html", status_code=status, lang=_lang_of(request), error=body, status=status)


def install_error_handlers(app: FastAPI) -> None:
    async def not_found(request: Request, exc: Exception) -> Response:
        return error_response(request, 404, "not_found", str(exc))

    async def invalid(request: Request, exc: Exception) -> Response:
        detail = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}" for e in getattr(exc, "errors", list)()
        )
        return error_response(request, 422, "invalid_parameter", detail or "invalid parameter")

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        detail = exc.detail if isinstance(exc, HTTPException) else "error"
        name = {404: "not_found", 405: "method_not_allowed", 422: "invalid_parameter"}.get(status, "error")
        return error_response(request, status, name, str(detail))

    async def store_error(request: Request, exc: Exception) -> Response:
        # StoreError messages are written to be safe (URLs redacted); others stay generic.
        detail = str(exc) if isinstance(exc, StoreError) else type(exc).__name__
        return error_response(request, 503 if isinstance(exc, StoreError) else 500, "server_error", detail)

    app.add_exception_handler(NotFound, not_found)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(PrdigestError, store_error)
