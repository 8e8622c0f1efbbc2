"""What LLM endpoints accept, remembered in the store on SQLite and PostgreSQL, and migration
0005 down and up."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import inspect

from prdigest.store import Store, llm_endpoint_store, migrate
from prdigest.store.llm_endpoint_store import EndpointRecord
from prdigest.store.testing import engine_of

URL = "http://127.0.0.1:8000/v1"


def test_records_are_saved_replaced_listed_and_forgotten(db_url: str) -> None:
    with Store.open(db_url) as store:
        assert llm_endpoint_store.get_endpoint(store, URL, "m") is None
        first = EndpointRecord(URL, "m", "json_object", "max_tokens", True, ("response_format json_schema",))
        llm_endpoint_store.save_endpoint(store, first)
        got = llm_endpoint_store.get_endpoint(store, URL, "m")
        assert got == first
        assert got is not None
        assert got.updated_at is not None
        second = EndpointRecord(URL, "m", "none", "max_completion_tokens", None, ())
        llm_endpoint_store.save_endpoint(store, second)
        llm_endpoint_store.save_endpoint(store, EndpointRecord(URL, "other", None, "max_tokens", False))
        assert [(r.model, r.response_format) for r in llm_endpoint_store.list_endpoints(store)] == [
            ("m", "none"),
            ("other", None),
        ]
        assert llm_endpoint_store.get_endpoint(store, URL, "m") == second
        assert llm_endpoint_store.forget_endpoint(store, URL, "m")
        assert not llm_endpoint_store.forget_endpoint(store, URL, "m")
        assert llm_endpoint_store.get_endpoint(store, URL, "m") is None


def test_migration_0005_downgrades_and_upgrades(tmp_path: Path) -> None:
    opened = Store.open(f"sqlite:///{tmp_path / 'm.db'}")
    try:
        llm_endpoint_store.save_endpoint(opened, EndpointRecord(URL, "m", "json_schema", "max_tokens", True))
        migrate.downgrade(engine_of(opened), "0004")
        assert not inspect(engine_of(opened)).has_table("llm_endpoints")
        migrate.upgrade(engine_of(opened))
        assert llm_endpoint_store.list_endpoints(opened) == []
    finally:
        opened.close()
