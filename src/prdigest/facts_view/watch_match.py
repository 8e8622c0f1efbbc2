"""Whether a PR is in a watch's slice, and why: the paths it touches, the dependencies it
changes (the same changes the ledger records), the symbols it adds, changes or removes, and
who wrote or reviewed it. Only the stored facts and the PR's author are read."""

from __future__ import annotations

from prdigest.facts_view.path_glob import matches as glob_matches
from prdigest.models.facts import Facts
from prdigest.models.ledger import canonical_package
from prdigest.models.watch import Watch, WatchMatch


def watch_matches(watch: Watch, facts: Facts, author: str | None) -> list[WatchMatch]:
    """Every rule of ``watch`` the PR meets, each with what matched; empty: not in the slice."""
    return [
        *_path_matches(watch, facts),
        *_package_matches(watch, facts),
        *_symbol_matches(watch, facts),
        *_person_matches(watch, facts, author),
    ]


def _touched_paths(facts: Facts) -> list[str]:
    paths: list[str] = []
    for file in facts.files.files:
        paths.append(file.path)
        if file.previous_path:
            paths.append(file.previous_path)  # moving a watched file out is a change to it too
    return list(dict.fromkeys(paths))


def _path_matches(watch: Watch, facts: Facts) -> list[WatchMatch]:
    found: list[WatchMatch] = []
    paths = _touched_paths(facts)
    for rule in watch.paths:
        hits = [path for path in paths if glob_matches(rule, path)]
        if hits:
            more = len(hits) - 1
            found.append(WatchMatch(kind="path", rule=rule, subject=hits[0], detail=str(more) if more else ""))
    return found


def _package_matches(watch: Watch, facts: Facts) -> list[WatchMatch]:
    found: list[WatchMatch] = []
    for rule in watch.packages:
        wanted = canonical_package(rule)
        changes = [c for c in facts.dependencies.changes if canonical_package(c.package) == wanted]
        if changes:
            kinds = ",".join(dict.fromkeys(str(kind) for change in changes for kind in change.kinds))
            found.append(WatchMatch(kind="package", rule=rule, subject=str(wanted), detail=kinds))
    return found


def _symbol_hit(rule: str, name: str) -> bool:
    # ``run`` finds ``Scheduler.run``; ``Scheduler`` finds ``Scheduler`` and its members.
    return name == rule or name.endswith(f".{rule}") or name.startswith(f"{rule}.") or f".{rule}." in name


def _symbol_matches(watch: Watch, facts: Facts) -> list[WatchMatch]:
    found: list[WatchMatch] = []
    for rule in watch.symbols:
        for symbol in facts.symbols.symbols:
            if _symbol_hit(rule, symbol.name):
                found.append(WatchMatch(kind="symbol", rule=rule, subject=symbol.name, detail=str(symbol.change)))
                break
    return found


def _reviewers(facts: Facts) -> list[str]:
    discussion = facts.discussion
    names = [*discussion.approvals, *discussion.changes_requested_by]
    for thread in discussion.threads:
        if thread.origin in ("review", "review-thread"):
            names.extend(thread.participants)
    return names


def _person_matches(watch: Watch, facts: Facts, author: str | None) -> list[WatchMatch]:
    found: list[WatchMatch] = []
    reviewers = {name.casefold(): name for name in _reviewers(facts)}
    for rule in watch.people:
        login = rule.casefold()
        if author is not None and author.casefold() == login:
            found.append(WatchMatch(kind="author", rule=rule, subject=author))
        elif login in reviewers:
            found.append(WatchMatch(kind="reviewer", rule=rule, subject=reviewers[login]))
    return found
