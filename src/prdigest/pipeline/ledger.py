"""The dependency ledger use cases: a package's history, and where a PR's changes sit in it.

`package_history` and `package_list` back ``prdigest deps`` and the web pages;
`ledger_links` gives the report builder, for each dependency change of one PR, the change
before it and the change after it (same package, same file) among merged PRs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from prdigest.models.facts import Facts
from prdigest.models.ledger import LedgerEntry, LedgerLink, canonical_package
from prdigest.pipeline.ledger_place import place_changes
from prdigest.store.ledger_store import PackageSummary, ledger_entries, ledger_packages
from prdigest.store.store import Store


@dataclass(frozen=True)
class PackageHistory:
    repository: str
    package: str
    entries: list[LedgerEntry]


def package_history(store: Store, repository: str, package: str) -> PackageHistory:
    name = canonical_package(package)
    return PackageHistory(repository, name, ledger_entries(store, repository, [name]))


def package_list(store: Store, repository: str) -> list[PackageSummary]:
    return ledger_packages(store, repository)


def ledger_links(
    store: Store, repository: str, number: int, facts: Facts, *, entries: list[LedgerEntry] | None = None
) -> list[LedgerLink]:
    """One link per dependency change of the PR, in the order of its facts (`place_changes`);
    ``entries``: the ledger of its packages (`pr_ledger_entries`), when already read."""
    changes = facts.dependencies.changes
    if not changes:
        return []
    if entries is None:
        entries = pr_ledger_entries(store, repository, facts)
    return place_changes(number, facts, entries)


def pr_ledger_entries(store: Store, repository: str, facts: Facts) -> list[LedgerEntry]:
    """Every change in the ledger of the packages the PR changes (none when it changes none)."""
    packages = [c.package for c in facts.dependencies.changes]
    return ledger_entries(store, repository, packages) if packages else []


def prs_ledger_entries(store: Store, repository: str, facts: Sequence[Facts]) -> list[list[LedgerEntry]]:
    """`pr_ledger_entries` of several PRs, in their order, read at once: each PR's are the
    entries of its packages among those of all (the same entries, in the same merge order)."""
    wanted = [{canonical_package(c.package) for c in one.dependencies.changes} for one in facts]
    every = set().union(*wanted)
    entries = ledger_entries(store, repository, sorted(every)) if every else []
    return [[entry for entry in entries if entry.package in names] if names else [] for names in wanted]
