"""A PR's dependency changes placed in the repository's ledger, in the report's language."""

from __future__ import annotations

from collections.abc import Sequence

from prdigest.models.facts import DependencyChange
from prdigest.models.ledger import LedgerEntry, LedgerLink, canonical_package
from prdigest.models.report import DependencyHistoryItem, LedgerStep
from prdigest.words import Labels


def _spec(requirement: str | None, package: str, lab: Labels) -> str:
    if requirement is None:
        return ""
    text = requirement.split("#", 1)[0].strip()
    first, _, written = text.partition(" ")
    if text.lower().startswith(package.lower()):
        rest = text[len(package) :].strip()
    elif written and canonical_package(first) == canonical_package(package):
        rest = written.strip()  # "serde_json 1.0" (go.mod, Cargo.toml, package.json) of serde-json
    else:
        rest = text
    return (rest or lab.tables["ledger"]["any_version"]).replace("`", "'")


def _step(entry: LedgerEntry | None, lab: Labels, edge: str, *, joins: bool = True) -> tuple[LedgerStep | None, str]:
    """The neighbouring ledger entry as text; ``joins`` is False when its requirement is not the
    one this PR read or left (a commit outside the synced PRs changed it in between)."""
    table = lab.tables["ledger"]
    if entry is None:
        return None, table[edge]
    step = LedgerStep(number=entry.number, title=entry.title, requirement=entry.after)
    if entry.after is None:
        text = table["removed"].format(number=entry.number)
    else:
        text = table["step"].format(spec=_spec(entry.after, entry.package, lab), number=entry.number)
    return step, text if joins else table[f"{edge}_gap"].format(step=text)


def _same(left: str | None, right: str | None, package: str, lab: Labels) -> bool:
    return left is None or right is None or _spec(left, package, lab) == _spec(right, package, lab)


def _change(change: DependencyChange, lab: Labels) -> str:
    table = lab.tables["ledger"]
    before = _spec(change.before, change.package, lab)
    after = _spec(change.after, change.package, lab)
    if change.before is None and change.moved_from:
        source = "`, `".join(path.replace("`", "'") for path in change.moved_from)
        return table["moved"].format(after=after, source=source)
    if change.before is None:
        return table["added"].format(after=after)
    if change.after is None:
        return table["dropped"].format(before=before)
    return table["change"].format(before=before, after=after)


def history_items(
    changes: Sequence[DependencyChange], links: Sequence[LedgerLink], merged: bool, lab: Labels
) -> list[DependencyHistoryItem]:
    """One item per change that has a ledger link (links come in the order of the changes)."""
    items: list[DependencyHistoryItem] = []
    table = lab.tables["ledger"]
    for change, link in zip(changes, links, strict=False):
        # The ledger holds the synced PRs only: a requirement this PR found other than its
        # predecessor left it (or left other than its successor found) was changed in between.
        joins_previous = link.previous is None or _same(link.previous.after, change.before, change.package, lab)
        joins_next = link.next is None or _same(change.after, link.next.before, change.package, lab)
        previous, previous_text = _step(link.previous, lab, "first", joins=joins_previous)
        following, next_text = _step(link.next, lab, "last", joins=joins_next)
        if not merged:
            next_text = table["not_merged"]
        text = table["line"].format(
            package=change.package,
            path=change.path,
            change=_change(change, lab),
            previous=previous_text,
            next=next_text,
        )
        items.append(
            DependencyHistoryItem(
                package=change.package,
                path=change.path,
                before=change.before,
                after=change.after,
                moved_from=change.moved_from,
                previous=previous,
                next=following,
                merged=merged,
                text=text,
            )
        )
    return items
