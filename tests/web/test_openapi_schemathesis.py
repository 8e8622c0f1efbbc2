"""schemathesis against the app's own OpenAPI document: every GET operation, generated inputs.

Operations are enumerated and driven with hypothesis directly (``operation.as_strategy()``),
which works under pytest 9, where schemathesis' lazy fixture loader does not.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance
from tests.helpers.sample_store import fill_store

from prdigest.config import Settings
from prdigest.store import Store
from prdigest.web import create_app

OPERATIONS = [
    "/repos.json",
    "/queue.json",
    "/search.json",
    "/repos/{owner}/{name}.json",
    "/repos/{owner}/{name}/pulls/{number}.json",
    "/repos/{owner}/{name}/pulls/{number}/lineage.json",
    "/repos/{owner}/{name}/deps.json",
    "/repos/{owner}/{name}/deps/{package}.json",
    "/watch.json",
    "/watch/{name}.json",
]


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory: pytest.TempPathFactory) -> Iterator[schemathesis.BaseSchema]:
    path: Path = tmp_path_factory.mktemp("schemathesis") / "api.db"
    store = Store.open(f"sqlite:///{path}")
    fill_store(store)
    yield schemathesis.openapi.from_asgi("/openapi.json", create_app(store, Settings()))
    store.close()


def test_schema_lists_only_get_operations(api_schema: schemathesis.BaseSchema) -> None:
    operations = [result.ok() for result in api_schema.get_all_operations()]  # type: ignore[union-attr]
    assert sorted(op.path for op in operations) == sorted(OPERATIONS)
    assert {op.method.upper() for op in operations} == {"GET"}


@pytest.mark.parametrize("path", OPERATIONS)
def test_operation_conforms_to_its_schema(api_schema: schemathesis.BaseSchema, path: str) -> None:
    operation = api_schema["/" + path.lstrip("/")]["GET"]

    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(case=operation.as_strategy())
    def run(case: schemathesis.Case[Any]) -> None:
        case.call_and_validate(checks=[not_a_server_error, response_schema_conformance])

    run()
    # Generated owners and names rarely exist: also check the stored repository's answers.
    known = {"owner": "acme", "name": "widgets", "number": 3, "package": "requests"}
    wanted = {k: v for k, v in known.items() if "{" + k + "}" in path}
    operation.Case(path_parameters=wanted).call_and_validate(checks=[not_a_server_error, response_schema_conformance])
