"""The dependency ledger's queries: each package's changes across merged PRs, in merge order.

Rows are written with the facts (`facts_store.save_facts_rows`); only merged PRs count, since
an open or closed-unmerged PR changed nothing on the branch. Merge order is the merge time,
then the PR number, then the change's position in the PR's facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, and_, func, select

from prdigest.models.ledger import LedgerEntry, canonical_package
from prdigest.store.ledger_rows import ledger_entry as _entry
from prdigest.store.read_models import repository_id
from prdigest.store.schema import dependency_changes, pull_requests, repositories
from prdigest.store.store import Store


@dataclass(frozen=True)
class PackageSummary:
    package: str
    changes: int
    pull_requests: int


def _merged(repo_id: int) -> Any:
    return and_(pull_requests.c.repository_id == repo_id, pull_requests.c.merged_at.is_not(None))


def _entries_query(repo_id: int) -> Select[Any]:
    return (
        select(
            repositories.c.full_name,
            pull_requests.c.number,
            pull_requests.c.title,
            pull_requests.c.merged_at,
            dependency_changes.c.path,
            dependency_changes.c.package,
            dependency_changes.c.before,
            dependency_changes.c.after,
            dependency_changes.c.kinds,
            dependency_changes.c.scope,
            dependency_changes.c.condition,
            dependency_changes.c.replaced_by,
        )
        .join(pull_requests, pull_requests.c.id == dependency_changes.c.pull_request_id)
        .join(repositories, repositories.c.id == pull_requests.c.repository_id)
        .where(_merged(repo_id))
        .order_by(pull_requests.c.merged_at, pull_requests.c.number, dependency_changes.c.position)
    )


def ledger_entries(store: Store, repository: str, packages: Sequence[str] | None = None) -> list[LedgerEntry]:
    """Every change of ``packages`` (all packages when None) in ``repository``, in merge order."""
    with store._engine.connect() as connection:
        query = _entries_query(repository_id(connection, repository))
        if packages is not None:
            names = sorted({canonical_package(p) for p in packages})
            if not names:
                return []
            query = query.where(dependency_changes.c.package.in_(names))
        return [_entry(row) for row in connection.execute(query)]


def ledger_packages(store: Store, repository: str) -> list[PackageSummary]:
    """The packages with recorded changes, most changed first (then by name)."""
    with store._engine.connect() as connection:
        repo_id = repository_id(connection, repository)
        rows = connection.execute(
            select(
                dependency_changes.c.package,
                func.count(),
                func.count(func.distinct(pull_requests.c.id)),
            )
            .join(pull_requests, pull_requests.c.id == dependency_changes.c.pull_request_id)
            .where(_merged(repo_id))
            .group_by(dependency_changes.c.package)
            .order_by(func.count().desc(), dependency_changes.c.package)
        )
        return [PackageSummary(str(r[0]), int(r[1]), int(r[2])) for r in rows]
