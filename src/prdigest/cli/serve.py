"""``prdigest serve``: the web UI and JSON API, read-only but for creating a watch (``/watch``,
a same-origin form with a CSRF token).

Binds 127.0.0.1 unless told otherwise (and warns when told). The search index is brought up
to date before the first request. With ``--workers N`` uvicorn runs N processes; each opens
the database itself (the URL travels in an environment variable, read by `app_from_env`).

One worker is the default: the pages are a few index lookups plus cached HTML, and on the
2-core machines measured (benchmarks/web.py, 100,000 PRs, 20 connections, load generator on
the same machine) a second worker gave no lower latency, only a second set of caches.
uvicorn uses uvloop and httptools when the ``web`` extra installed them.

Feed and search responses are cached whole, under the database's write generation
(prdigest.web.page_cache): a ``sync`` or ``analyze`` running next to the server shows on the
next request at most a second later. Reports are not pre-rendered at start: a report's first
view after a start costs ~7 ms of CPU even when its narrative is already stored (building and
sanitizing the page, not narrating), and a background pass would compete for the GIL with
requests and, where it stored narratives, empty the page caches with every write.
"""

from __future__ import annotations

import ipaddress
import os

import click

from prdigest.cli.options import db_option

_URL_ENV = "PRDIGEST_SERVE_DB_URL"
_LLM_ENV = "PRDIGEST_SERVE_LLM"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def app_from_env() -> object:
    """Factory for uvicorn worker processes (``--workers > 1``)."""
    from prdigest.config import load_settings
    from prdigest.store import Store
    from prdigest.web import WebOptions, create_app

    options = WebOptions(narrate_with_llm=bool(os.environ.get(_LLM_ENV)))
    store = Store.open(os.environ[_URL_ENV], create=False, read_only_ok=True)
    store.tune_for_serving()
    return create_app(store, load_settings(), options)


def _where(url: str) -> str:
    from prdigest.store.database import display_name

    return display_name(url)


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind (loopback by default).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64), help="Server processes.")
@click.option("--no-reindex", is_flag=True, help="Skip bringing the search index up to date at start.")
@click.option("--llm", "use_llm", is_flag=True, help="Narrate unnarrated reports with the configured LLM on view.")
@db_option
def serve(host: str, port: int, workers: int, no_reindex: bool, use_llm: bool, db: str | None) -> None:
    """Serve the web UI and JSON API (read-only: GET and HEAD only, but for the form at /watch that
    creates a watch, same-origin with a CSRF token)."""
    import uvicorn

    from prdigest.config import load_settings
    from prdigest.store import Store, resolve_database_url
    from prdigest.store.search_store import reindex
    from prdigest.web import WebOptions, create_app

    options = WebOptions(narrate_with_llm=use_llm)
    if not is_loopback(host):
        click.echo(
            f"warning: binding {host}: the server is reachable from other machines; "
            "it has no authentication. Use a reverse proxy or bind 127.0.0.1.",
            err=True,
        )
    url = resolve_database_url(db)
    settings = load_settings()
    store = Store.open(url, create=False, read_only_ok=True)
    if store.read_only:
        click.echo(f"note: {_where(url)} is read-only: serving it as it is (search index not refreshed)", err=True)
    if not no_reindex:
        stats = reindex(store)
        if stats.indexed or stats.removed:
            click.echo(f"search index: {stats.indexed} updated, {stats.removed} removed", err=True)
    click.echo(f"serving on http://{host}:{port}/", err=True)
    if workers == 1:
        store.tune_for_serving()
        uvicorn.run(create_app(store, settings, options), host=host, port=port, log_level="warning", access_log=False)
        return
    store.close()
    os.environ[_URL_ENV] = url
    os.environ[_LLM_ENV] = "1" if use_llm else ""
    uvicorn.run(
        "prdigest.cli.serve:app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level="warning",
        access_log=False,
    )
