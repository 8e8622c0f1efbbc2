"""Where each dependency change of one PR sits among the ledger's entries: no database code
here (`ledger.ledger_links` reads the entries through the store, `quick.quick_report` with
sqlite3)."""

from __future__ import annotations

from collections.abc import Sequence

from prdigest.models.facts import Facts
from prdigest.models.ledger import LedgerEntry, LedgerLink, canonical_package


def place_changes(number: int, facts: Facts, entries: Sequence[LedgerEntry]) -> list[LedgerLink]:
    """One link per dependency change of PR ``number``, in the order of its facts, from the
    ledger ``entries`` of its packages (merge order).

    A merged PR finds itself in the ledger and takes its neighbours; an unmerged one (or one
    whose ledger rows are not written yet) is placed after every merged change, so only a
    predecessor can be named."""
    links: list[LedgerLink] = []
    for change in facts.dependencies.changes:
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
