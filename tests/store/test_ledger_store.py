"""The dependency ledger's rows: written and replaced with facts, read in merge order, on
SQLite and (when PRDIGEST_TEST_PG_URL is set) PostgreSQL; migration 0003 down and up."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.deps_history import REPO, deps_store

from prdigest.store import Store
from prdigest.store.facts_store import get_facts, save_facts
from prdigest.store.ledger_store import ledger_entries, ledger_packages


def test_ledger_rows_in_merge_order(db_url: str, tmp_path: Path) -> None:
    store = Store.open(db_url)
    try:
        deps_store(tmp_path / "repo", store)
        cupy = ledger_entries(store, REPO, ["CuPy_Cuda13x"])
        assert [(e.number, e.before, e.after) for e in cupy] == [
            (2, None, "cupy-cuda13x<14.1.0"),
            (3, "cupy-cuda13x<14.1.0", "cupy-cuda13x!=14.1.0"),
        ]
        assert cupy[1].kinds == ["cap-to-exclusion"]
        assert cupy[0].merged_at is not None
        assert cupy[0].merged_at < cupy[1].merged_at
        nixl = ledger_entries(store, REPO, ["nixl-cu12"])
        assert [(e.number, e.kinds, e.replaced_by) for e in nixl] == [
            (1, ["added"], None),
            (4, ["removed", "replaced-by"], "nixl"),
        ]
        packages = {p.package: (p.changes, p.pull_requests) for p in ledger_packages(store, REPO)}
        assert packages["cupy-cuda13x"] == (2, 2)
        assert packages["torch"] == (2, 1)  # release and development specifiers of one PR
        everything = ledger_entries(store, REPO)
        assert [e.number for e in everything] == sorted(e.number for e in everything)

        # facts saved again replace the PR's rows, never add to them
        facts = get_facts(store, REPO, 3)
        assert facts is not None
        save_facts(store, store.pr_id(REPO, 3), facts, "again")
        assert len(ledger_entries(store, REPO, ["cupy-cuda13x"])) == 2
    finally:
        store.close()


def test_migration_0003_downgrades_and_upgrades(tmp_path: Path) -> None:
    from sqlalchemy import inspect

    from prdigest.store import migrate
    from prdigest.store.testing import engine_of

    store = Store.open(f"sqlite:///{tmp_path / 'm.db'}")
    try:
        engine = engine_of(store)
        assert inspect(engine).has_table("dependency_changes")
        migrate.downgrade(engine, "0002")
        assert not inspect(engine).has_table("dependency_changes")
        migrate.upgrade(engine)
        assert inspect(engine).has_table("dependency_changes")
    finally:
        store.close()
