"""What LLM endpoints accept, remembered in the store: the `CapabilityMemory` the pipeline
hands the LLM client, so a 400 on ``response_format`` is learnt once, not on every run."""

from __future__ import annotations

from typing import cast, get_args

from prdigest.narrate.llm.capabilities import Capabilities, ResponseFormat, TokenParam, endpoint_key
from prdigest.store import llm_endpoint_store
from prdigest.store.llm_endpoint_store import EndpointRecord
from prdigest.store.store import Store


class StoredCapabilities:
    """A `CapabilityMemory` backed by the store's ``llm_endpoints`` table."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def recall(self, endpoint: str, model: str) -> Capabilities | None:
        record = llm_endpoint_store.get_endpoint(self._store, endpoint, model)
        return None if record is None else capabilities_of(record)

    def remember(self, endpoint: str, model: str, capabilities: Capabilities) -> None:
        llm_endpoint_store.save_endpoint(
            self._store,
            EndpointRecord(
                base_url=endpoint,
                model=model,
                response_format=capabilities.response_format,
                token_param=capabilities.token_param,
                usage=capabilities.usage,
                rejected=tuple(capabilities.rejected),
            ),
        )


def capabilities_of(record: EndpointRecord) -> Capabilities:
    """The record as the client knows it; values this prdigest does not know are dropped."""
    fmt = record.response_format if record.response_format in get_args(ResponseFormat) else None
    param = record.token_param if record.token_param in get_args(TokenParam) else "max_tokens"
    return Capabilities(
        response_format=cast(ResponseFormat | None, fmt),
        token_param=cast(TokenParam, param),
        usage=record.usage,
        rejected=list(record.rejected),
    )


def remembered(store: Store, base_url: str, model: str) -> EndpointRecord | None:
    """What is remembered of the endpoint at `base_url` for `model`."""
    return llm_endpoint_store.get_endpoint(store, endpoint_key(base_url), model)
