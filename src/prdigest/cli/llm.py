"""``prdigest llm check``: probe the configured LLM endpoint and print a one-screen diagnosis."""

from __future__ import annotations

from typing import Any

import click

from prdigest.cli.options import db_option, open_store
from prdigest.errors import ConfigError, NarrationError, StoreError

_FORMATS = {
    "json_schema": "JSON schema (strict): answers are constrained to the report's shape",
    "json_object": "JSON object only (no schema): answers are checked and retried when off-shape",
    "none": "no response_format: the JSON is extracted from plain text",
}


@click.group("llm")
def llm() -> None:
    """The LLM narrator's endpoint."""


@llm.command("check")
@db_option
def check(db: str | None) -> None:
    """Probe the endpoint: models, one tiny schema call, latency, what is supported.

    Shows what the database remembers of the endpoint, probes it afresh and remembers the
    result, so narration asks the right way at once."""
    from prdigest.config import load_settings
    from prdigest.narrate.llm.probe import probe

    settings = load_settings()
    config = settings.llm
    if config is None:
        raise ConfigError(
            "no LLM is configured: set PRDIGEST_LLM_BASE_URL and PRDIGEST_LLM_MODEL, or [llm] base_url and model"
        )
    store = _store(db)
    store_found = store is not None
    try:
        before = _remembered(store, config.base_url, config.model)
        memory = None
        if store is not None:
            from prdigest.pipeline.llm_endpoints import StoredCapabilities

            memory = StoredCapabilities(store)
        result = probe(config, memory)
        after = _remembered(store, config.base_url, config.model)
    finally:
        if store is not None:
            store.close()
    out = click.echo
    out(f"endpoint        {result.base_url}")
    out(f"model           {result.model}")
    out(f"api key         {'set' if result.api_key_set else 'not set (fine for local servers)'}")
    out(f"token budget    {config.token_budget:,} prompt tokens per PR; {config.max_output_tokens:,} output")
    if result.models is not None:
        listed = "listed" if result.model_listed else "NOT listed: check the model name"
        shown = ", ".join(result.models[:5]) + (f" (+{len(result.models) - 5})" if len(result.models) > 5 else "")
        out(f"models          {len(result.models)} served ({shown}); {config.model} {listed}")
    else:
        out(f"models          could not be listed ({result.models_error})")
    if not result.call_ok:
        out(f"test call       FAILED after {result.seconds:.2f}s: {result.call_error}")
        out(f"remembered      {_describe(store_found, before)} (kept)")
        raise NarrationError("the endpoint cannot narrate; reports use the offline narrator until it can")
    out(f"test call       ok in {result.seconds:.2f}s; answer {'valid' if result.answer_valid else 'NOT valid JSON'}")
    out(f"structured      {_FORMATS.get(result.response_format, result.response_format)}")
    if result.rejected:
        out(f"                (answered HTTP 400 to: {', '.join(result.rejected)})")
    out(f"output limit    sent as {result.token_param}")
    usage = {True: "reported", False: "missing: costs are estimated", None: "unknown"}[result.usage]
    out(f"token usage     {usage}")
    if after == before:
        out(f"remembered      {_describe(store_found, after)} (unchanged)")
    else:
        out(f"remembered      {_describe(store_found, before)}")
        out(f"now remembered  {_describe(store_found, after)}")


def _store(db: str | None) -> Any:
    """The database that remembers endpoints; None (nothing remembered) when there is none yet."""
    try:
        return open_store(db, "read")
    except StoreError:
        return None


def _remembered(store: Any, base_url: str, model: str) -> Any:
    """The database's record of the endpoint (an `EndpointRecord`), or None."""
    if store is None:
        return None
    from prdigest.pipeline.llm_endpoints import remembered

    return remembered(store, base_url, model)


def _describe(store_found: bool, record: Any) -> str:
    if not store_found:
        return "nothing: no database yet (narration learns it on its first run)"
    if record is None:
        return "nothing yet"
    fmt = record.response_format or "not learnt"
    usage = {True: "usage reported", False: "no usage", None: "usage unknown"}[record.usage]
    when = f" (since {record.updated_at:%Y-%m-%d %H:%M} UTC)" if record.updated_at else ""
    return f"response_format {fmt}, {record.token_param}, {usage}{when}"
