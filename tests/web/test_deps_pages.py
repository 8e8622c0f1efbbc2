"""The dependency ledger pages and their JSON twins, on a synced and analyzed git history."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.helpers.analyzed import analyzed_history
from tests.helpers.deps_history import REPO, deps_store
from tests.helpers.ecosystems_history import REPO as POLYGLOT
from tests.helpers.ecosystems_history import build_ecosystems_history

from prdigest.config import Settings
from prdigest.store import Store
from prdigest.web import create_app

BASE = f"/repos/{REPO}/deps"


@pytest.fixture
def deps_client(tmp_path: Path) -> Iterator[TestClient]:
    store = Store.open(f"sqlite:///{tmp_path / 'deps.db'}")
    deps_store(tmp_path / "repo", store)
    with TestClient(create_app(store, Settings())) as client:
        yield client
    store.close()


def test_package_page_and_its_json_twin(deps_client: TestClient) -> None:
    data = deps_client.get(f"{BASE}/cupy-cuda13x.json").json()
    assert data["package"] == "cupy-cuda13x"
    assert [(e["number"], e["before"], e["after"], e["kinds"]) for e in data["entries"]] == [
        (2, None, "cupy-cuda13x<14.1.0", ["added"]),
        (3, "cupy-cuda13x<14.1.0", "cupy-cuda13x!=14.1.0", ["cap-to-exclusion"]),
    ]
    assert data["entries"][0]["url"].startswith(f"/repos/{REPO}/pulls/2")
    assert data["entries"][0]["merged_at"].endswith(("Z", "+00:00"))
    negotiated = deps_client.get(f"{BASE}/CuPy_Cuda13x", headers={"Accept": "application/json"}).json()
    assert negotiated["entries"] == data["entries"]
    page = deps_client.get(f"{BASE}/cupy-cuda13x?lang=en")
    assert page.status_code == 200
    assert "<code>cupy-cuda13x&lt;14.1.0</code> → <code>cupy-cuda13x!=14.1.0</code>" in page.text
    assert page.text.index("#2") < page.text.index("#3")


def test_package_list_and_unknown_package(deps_client: TestClient) -> None:
    listing = deps_client.get(f"{BASE}.json").json()
    names = [p["package"] for p in listing["packages"]]
    assert "nixl-cu12" in names
    assert "torch" in names
    assert deps_client.get(f"{BASE}?lang=en").status_code == 200
    empty = deps_client.get(f"{BASE}/left-pad.json").json()
    assert empty["entries"] == []
    assert deps_client.get(f"{BASE}/..%2Fetc.json").status_code in (404, 422)
    assert deps_client.get("/repos/nobody/nothing/deps.json").status_code == 404


def test_a_go_module_page_keeps_the_slashes_of_its_path(tmp_path: Path) -> None:
    store = analyzed_history(build_ecosystems_history(tmp_path / "repo"), POLYGLOT, tmp_path / "polyglot.db")
    with TestClient(create_app(store, Settings())) as client:
        listed = client.get(f"/repos/{POLYGLOT}/deps.json").json()
        item = next(p for p in listed["packages"] if p["package"] == "golang.org/x/text")
        assert item["url"].startswith(f"/repos/{POLYGLOT}/deps/golang.org/x/text")
        data = client.get(f"/repos/{POLYGLOT}/deps/golang.org/x/text.json").json()
        assert [(e["before"], e["after"]) for e in data["entries"]] == [
            ("golang.org/x/text v0.14.0", "golang.org/x/text v0.15.0")
        ]
        page = client.get(item["url"])
        assert page.status_code == 200
        assert "v0.15.0" in page.text
    store.close()
