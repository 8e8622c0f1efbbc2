"""The dependency ledger pages: ``/repos/{owner}/{name}/deps`` (its packages) and
``/repos/{owner}/{name}/deps/{package}`` (every change of one package, a Go module's path with
its slashes), each with a JSON twin."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from starlette.responses import JSONResponse, Response

from prdigest.pipeline.ledger import package_history, package_list
from prdigest.web.context import web_context
from prdigest.web.errors import ERROR_RESPONSES
from prdigest.web.negotiation import wants_json
from prdigest.web.params import LangParam, NameParam, OwnerParam
from prdigest.web.schemas import DepsEntry, DepsPackageItem, DepsPackagePage, DepsPackagesPage
from prdigest.web.templating import pr_path, repo_path, with_query
from prdigest.words import DEFAULT_LANG, Lang

router = APIRouter()

# A Python distribution, a crate or an npm package (``@scope/name``), or a Go module path
# (``golang.org/x/net``): the path converter keeps its slashes.
PackageParam = Annotated[str, Path(max_length=200, pattern=r"^@?[A-Za-z0-9][A-Za-z0-9._~/-]*$")]


def deps_path(repository: str, package: str | None = None) -> str:
    base = f"{repo_path(repository)}/deps"
    return base if package is None else f"{base}/{package}"


def load_packages(request: Request, repository: str, lang: Lang) -> DepsPackagesPage:
    rows = package_list(web_context(request).store, repository)
    return DepsPackagesPage(
        repository=repository,
        lang=lang,
        packages=[
            DepsPackageItem(
                package=r.package,
                changes=r.changes,
                pull_requests=r.pull_requests,
                url=with_query(deps_path(repository, r.package), lang=lang),
            )
            for r in rows
        ],
    )


def load_package(request: Request, repository: str, package: str, lang: Lang) -> DepsPackagePage:
    history = package_history(web_context(request).store, repository, package)
    return DepsPackagePage(
        repository=repository,
        package=history.package,
        lang=lang,
        entries=[
            DepsEntry(
                number=e.number,
                title=e.title,
                merged_at=e.merged_at,
                path=e.path,
                before=e.before,
                after=e.after,
                kinds=e.kinds,
                scope=e.scope,
                condition=e.condition,
                replaced_by=e.replaced_by,
                url=with_query(pr_path(repository, e.number), lang=lang),
            )
            for e in history.entries
        ],
    )


@router.get(
    "/repos/{owner}/{name}/deps.json",
    response_model=DepsPackagesPage,
    responses=ERROR_RESPONSES,
    summary="The packages of a repository's dependency ledger",
)
def packages_json(
    request: Request, owner: OwnerParam, name: NameParam, lang: LangParam = DEFAULT_LANG
) -> DepsPackagesPage:
    return load_packages(request, f"{owner}/{name}", lang)


@router.get("/repos/{owner}/{name}/deps", include_in_schema=False)
def packages_html(request: Request, owner: OwnerParam, name: NameParam, lang: LangParam = DEFAULT_LANG) -> Response:
    page = load_packages(request, f"{owner}/{name}", lang)
    if wants_json(request):
        return JSONResponse(page.model_dump(mode="json"))
    return web_context(request).renderer.page("deps.html", lang=lang, page=page, path=deps_path(page.repository))


@router.get(
    "/repos/{owner}/{name}/deps/{package:path}.json",
    response_model=DepsPackagePage,
    responses=ERROR_RESPONSES,
    summary="Every change of one package in merged PRs, in merge order",
)
def package_json(
    request: Request, owner: OwnerParam, name: NameParam, package: PackageParam, lang: LangParam = DEFAULT_LANG
) -> DepsPackagePage:
    return load_package(request, f"{owner}/{name}", package, lang)


@router.get("/repos/{owner}/{name}/deps/{package:path}", include_in_schema=False)
def package_html(
    request: Request, owner: OwnerParam, name: NameParam, package: PackageParam, lang: LangParam = DEFAULT_LANG
) -> Response:
    page = load_package(request, f"{owner}/{name}", package, lang)
    if wants_json(request):
        return JSONResponse(page.model_dump(mode="json"))
    return web_context(request).renderer.page(
        "deps_package.html", lang=lang, page=page, path=deps_path(page.repository, page.package)
    )
