"""The dependency ledger use cases: a package's history, and where a PR's changes sit in it.

`package_history` and `package_list` back ``prdigest deps`` and the web pages;
`ledger_links` gives the report builder, for each dependency change of one PR, the change
before it and the change after it (same package, same file) among merged PRs.
"""

from __future__ import annotations

from dataclasses import dataclass

from packaging.utils import canonicalize_name

from prdigest.models.facts import Facts
from prdigest.models.ledger import LedgerEntry, LedgerLink
from prdigest.store.ledger_store import PackageSummary, ledger_entries, ledger_packages
from prdigest.store.store import Store


@dataclass(frozen=True)
class PackageHistory:
    repository: str
    package: str
    entries: list[LedgerEntry]


def canonical_package(name: str) -> str:
    return str(canonicalize_name(name.strip()))


def package_history(store: Store, repository: str, package: str) -> PackageHistory:
    name = canonical_package(package)
    return PackageHistory(repository, name, ledger_entries(store, repository, [name]))


def package_list(store: Store, repository: str) -> list[PackageSummary]:
    return ledger_packages(store, repository)


def ledger_links(store: Store, repository: str, number: int, facts: Facts) -> list[LedgerLink]:
    """One link per dependency change of the PR, in the order of its facts.

    A merged PR finds itself in the ledger and takes its neighbours; an unmerged one (or one
    whose ledger rows are not written yet) is placed after every merged change, so only a
    predecessor can be named."""
    changes = facts.dependencies.changes
    if not changes:
        return []
    entries = ledger_entries(store, repository, [c.package for c in changes])
    links: list[LedgerLink] = []
    for change in changes:
        package = canonical_package(change.package)
        same = [e for e in entries if e.package == package and e.path == change.path]
        here = next(
            (
                i
                for i, e in enumerate(same)
                if e.number == number and e.before == change.before and e.after == change.after
            ),
            None,
        )
        if here is None:
            previous = next((e for e in reversed(same) if e.number != number), None)
            links.append(LedgerLink(package=change.package, path=change.path, previous=previous))
            continue
        earlier = [e for e in same[:here] if e.number != number]
        later = [e for e in same[here + 1 :] if e.number != number]
        links.append(
            LedgerLink(
                package=change.package,
                path=change.path,
                previous=earlier[-1] if earlier else None,
                next=later[0] if later else None,
            )
        )
    return links
