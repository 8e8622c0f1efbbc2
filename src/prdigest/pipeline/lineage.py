"""The cross-PR pass: what one PR's facts can only know once the others are analyzed.

Run after `analyze_stored` (whenever it analyzed anything). For one repository it
1. resolves reverts that name the reverted commit only by SHA to the PR whose merge or
   squash commit it is (a ``reverts`` reference with the SHA as evidence);
2. tells each PR who reverted or restored it, and when (`Facts.lineage`);
3. compares each restore / re-land with what the restored PR added (`RestoreDiff`);
4. links follow-ups both ways: an explicit "follow-up to #A", a ``TODO(#N)`` / "tracked in
   #N" done by a later PR, and a deferral ("relax once 14.1.1 ships", "unpin once #58
   lands") that a later PR's dependency change or reference carries out.
Only facts that change are written. Everything is derived from stored records and facts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from prdigest.analyzers.dependencies.moves import move_sources
from prdigest.analyzers.restore_diff import restore_diff
from prdigest.errors import NotFound
from prdigest.models.facts import (
    Deferral,
    Facts,
    FollowUp,
    LineageEvent,
    LineageFacts,
    Reference,
    RestoreDiff,
)
from prdigest.store import facts_store
from prdigest.store.facts_store import get_facts
from prdigest.store.lineage_queries import PRMoment, facts_containing, pr_by_commit, pr_moments, replace_facts
from prdigest.store.store import Store

# A pin or cap that a later change may undo, and the changes that undo one.
_LOCKING = frozenset({"cap-added", "cap-tightened", "pinned", "exclusion-added", "pin-changed", "added"})
_RELAXING = frozenset({"cap-relaxed", "unpinned", "exclusion-removed", "cap-to-exclusion", "removed", "pin-changed"})


@dataclass
class LineageStats:
    reverts_resolved_by_sha: int = 0
    reverted: int = 0
    restored: int = 0
    restore_diffs: int = 0
    follow_ups: dict[str, int] = field(default_factory=dict)  # by how they were matched
    updated: int = 0


class _Pass:
    def __init__(self, store: Store, repository: str) -> None:
        self.store = store
        self.repository = repository
        self.moments = pr_moments(store, repository)
        self.facts: dict[int, Facts] = {}
        self.lineage: dict[int, LineageFacts] = defaultdict(LineageFacts)
        self.extra_refs: dict[int, list[Reference]] = defaultdict(list)
        self.stats = LineageStats()

    # --- reading ----------------------------------------------------------------------

    def facts_of(self, number: int) -> Facts | None:
        if number not in self.facts:
            found = get_facts(self.store, self.repository, number)
            if found is None:
                return None
            self.facts[number] = found
        return self.facts[number]

    def remember(self, items: Iterable[Facts]) -> list[Facts]:
        kept = []
        for item in items:
            self.facts.setdefault(item.number, item)
            kept.append(self.facts[item.number])
        return kept

    def when(self, number: int) -> datetime | None:
        moment = self.moments.get(number)
        return moment.merged_at if moment else None

    def later(self, number: int, than: int) -> bool:
        a, b = self.when(number), self.when(than)
        if a is not None and b is not None:
            return a > b
        return number > than

    def event(self, number: int, evidence: str) -> LineageEvent:
        moment = self.moments.get(number) or PRMoment(number, "", None, "")
        return LineageEvent(
            repository=self.repository,
            number=number,
            title=moment.title,
            merged_at=moment.merged_at,
            evidence=evidence,
        )

    def follow_up(self, number: int, evidence: str, promise: str, matched_by: str) -> FollowUp:
        base = self.event(number, evidence)
        return FollowUp(**base.model_dump(), promise=promise, matched_by=matched_by)  # type: ignore[arg-type]

    # --- steps ------------------------------------------------------------------------

    def resolve_reverted_shas(self) -> None:
        for item in self.remember(facts_containing(self.store, self.repository, '"reverted_commits":["')):
            known = {(r.repository.lower(), r.number): r for r in item.references.references}
            for sha in item.references.reverted_commits:
                target = pr_by_commit(self.store, self.repository, sha, exclude=item.number)
                if target is None:
                    continue
                current = known.get((self.repository.lower(), target))
                if current is not None and current.relation == "reverts":
                    continue
                ref = Reference(
                    repository=self.repository,
                    number=target,
                    target_kind="pr",
                    relation="reverts",
                    where="git-revert",
                    evidence=f"This reverts commit {sha}",
                )
                self.extra_refs[item.number].append(ref)
                known[(self.repository.lower(), target)] = ref
                self.stats.reverts_resolved_by_sha += 1

    def links(self) -> list[tuple[int, Reference]]:
        """Every same-repository link: stored ones plus those resolved by SHA now."""
        found: dict[tuple[int, int], Reference] = {}
        for link in facts_store.all_links(self.store, self.repository):
            if link.target_repository.lower() != self.repository.lower():
                continue
            found[(link.source_number, link.target_number)] = Reference(
                repository=link.target_repository,
                number=link.target_number,
                relation=link.relation,  # type: ignore[arg-type]
                where=link.found_in,  # type: ignore[arg-type]
                evidence=link.evidence,
            )
        for source, refs in self.extra_refs.items():
            for ref in refs:
                found[(source, ref.number)] = ref
        return [(source, ref) for (source, _target), ref in sorted(found.items(), key=lambda kv: kv[0])]

    def reverts_and_restores(self, links: list[tuple[int, Reference]]) -> None:
        for source, ref in links:
            target = ref.number
            if target == source or target not in self.moments:
                continue
            if ref.relation == "reverts":
                self.lineage[target].reverted_by.append(self.event(source, ref.evidence))
                self.stats.reverted += 1
            elif ref.relation == "restores":
                self.lineage[target].restored_by.append(self.event(source, ref.evidence))
                self.stats.restored += 1
                diff = self.restore_diff(target, source)
                if diff is not None:
                    self.lineage[source].restore_diffs.append(diff)
                    self.stats.restore_diffs += 1

    def restore_diff(self, original: int, restore: int) -> RestoreDiff | None:
        try:
            before = self.store.get_pr(self.repository, original)
            after = self.store.get_pr(self.repository, restore)
        except NotFound:
            return None
        old_facts, new_facts = self.facts_of(original), self.facts_of(restore)
        return restore_diff(
            before,
            after,
            old_facts.symbols if old_facts else None,
            new_facts.symbols if new_facts else None,
        )

    def link_follow_up(self, earlier: int, later: int, evidence: str, promise: str, how: str) -> None:
        if earlier == later or not self.later(later, earlier):
            return
        if any(f.number == later for f in self.lineage[earlier].followed_up_by):
            return
        self.lineage[earlier].followed_up_by.append(self.follow_up(later, evidence, promise, how))
        self.lineage[later].follows_up.append(self.follow_up(earlier, evidence, promise, how))
        self.stats.follow_ups[how] = self.stats.follow_ups.get(how, 0) + 1

    def explicit_follow_ups(self, links: list[tuple[int, Reference]]) -> None:
        fixers: dict[int, list[tuple[int, str]]] = defaultdict(list)
        for source, ref in links:
            if ref.relation == "fixes":
                fixers[ref.number].append((source, ref.evidence))
        for source, ref in links:
            if ref.relation == "follow-up-to" and ref.number in self.moments:
                self.link_follow_up(ref.number, source, ref.evidence, "", "reference")
            elif ref.relation == "followed-up-by":
                if ref.number in self.moments and self.moments[ref.number].state == "merged":
                    self.link_follow_up(source, ref.number, ref.evidence, ref.evidence, "reference")
                    continue
                # "TODO(#61)" where #61 is an issue: the later PR that fixes #61 did the work.
                for fixer, evidence in fixers.get(ref.number, []):
                    self.link_follow_up(source, fixer, evidence, ref.evidence, "todo")

    def todo_removals(self, links: list[tuple[int, Reference]]) -> None:
        promised: dict[int, list[tuple[int, str]]] = defaultdict(list)
        for source, ref in links:
            if ref.relation == "followed-up-by" and ref.where == "code":
                promised[ref.number].append((source, ref.evidence))
        if not promised:
            return
        # `todos_removed` is left out of the JSON when empty, so this matches only PRs with some.
        for item in self.remember(facts_containing(self.store, self.repository, '"todos_removed":[')):
            for number in item.references.todos_removed:
                for earlier, promise in promised.get(number, []):
                    self.link_follow_up(earlier, item.number, f"removes the TODO naming #{number}", promise, "todo")

    def deferred_dependencies(self) -> None:
        """A PR that capped or pinned a package and said it would be undone later, followed by
        the first later PR that relaxes that package's constraint."""
        for item in self.remember(facts_containing(self.store, self.repository, '"deferrals":[{')):
            locked = {
                change.package.lower(): change
                for change in item.dependencies.changes
                if _LOCKING.intersection(change.kinds) and (change.kinds != ["added"] or _capped(change.after))
            }
            if not locked:
                continue
            for package, _change in sorted(locked.items()):
                promise = _promise_for(item.references.deferrals, package, _change.variant_family)
                if promise is None:
                    continue
                relaxer = self.first_relaxing(package, item.number)
                if relaxer is not None:
                    number, evidence = relaxer
                    self.link_follow_up(item.number, number, evidence, promise.evidence, "dependency")

    def first_relaxing(self, package: str, after: int) -> tuple[int, str] | None:
        candidates = facts_containing(self.store, self.repository, f'"package":"{package}"')
        for item in sorted(self.remember(candidates), key=lambda f: (self.when(f.number) or datetime.min, f.number)):
            if not self.later(item.number, after):
                continue
            moved = move_sources(item.dependencies.changes, unchanged_only=True)
            for change in item.dependencies.changes:
                if (change.package, change.path) in moved:
                    continue  # the declaration moved to another file as it was: nothing relaxed
                if change.package.lower() == package and _RELAXING.intersection(change.kinds):
                    return item.number, f"{change.package}: {change.before or '—'} → {change.after or '—'}"
        return None

    def waited_for(self, links: list[tuple[int, Reference]]) -> None:
        """ "Unpin once #58 lands": a later PR that refers back to the deferring PR, merged after
        the PR waited for, carries it out."""
        incoming: dict[int, list[tuple[int, str]]] = defaultdict(list)
        for source, ref in links:
            incoming[ref.number].append((source, ref.evidence))
        for item in self.remember(facts_containing(self.store, self.repository, '"deferrals":[{')):
            for deferral in item.references.deferrals:
                for waited in deferral.waits_for:
                    for source, evidence in incoming.get(item.number, []):
                        if source == waited or not self.later(source, item.number):
                            continue
                        if waited in self.moments and not self.later(source, waited):
                            continue
                        self.link_follow_up(item.number, source, evidence, deferral.evidence, "waited-for")

    # --- writing ----------------------------------------------------------------------

    def changed_facts(self) -> list[Facts]:
        numbers = set(self.lineage) | set(self.extra_refs)
        # PRs that had lineage before and have none now must be cleared too.
        for item in self.remember(facts_containing(self.store, self.repository, '"lineage":{')):
            numbers.add(item.number)
        changed: list[Facts] = []
        for number in sorted(numbers):
            current = self.facts_of(number)
            if current is None:
                continue
            lineage = _sorted(self.lineage.get(number, LineageFacts()))
            refs = _merge_refs(current.references.references, self.extra_refs.get(number, []))
            if lineage == current.lineage and refs == current.references.references:
                continue
            references = current.references.model_copy(update={"references": refs})
            changed.append(current.model_copy(update={"lineage": lineage, "references": references}))
        return changed


def link_repository(store: Store, repository: str) -> LineageStats:
    """Run the cross-PR pass over one repository; write the facts it changes."""
    run = _Pass(store, repository)
    run.resolve_reverted_shas()
    links = run.links()
    run.reverts_and_restores(links)
    run.explicit_follow_ups(links)
    run.todo_removals(links)
    run.deferred_dependencies()
    run.waited_for(links)
    changed = run.changed_facts()
    replace_facts(store, repository, changed)
    run.stats.updated = len(changed)
    return run.stats


def _capped(requirement: str | None) -> bool:
    return requirement is not None and any(op in requirement for op in ("<", "==", "~=", "!="))


def _promise_for(deferrals: list[Deferral], package: str, family: str | None) -> Deferral | None:
    """The deferral about this package: one naming it (or its family), else the only one given
    with a version or a PR to wait for (a body that pins one package and says "relax once
    14.1.1 ships" needs not repeat the name)."""
    names = {package, *([family.lower()] if family else [])}
    for deferral in deferrals:
        if any(
            word == name or word.startswith(f"{name}-") or name.startswith(word)
            for word in deferral.words
            for name in names
            if len(word) > 2
        ):
            return deferral
    waiting = [d for d in deferrals if d.versions or d.waits_for]
    return waiting[0] if len(waiting) == 1 else None


def _merge_refs(current: list[Reference], extra: list[Reference]) -> list[Reference]:
    if not extra:
        return current
    by_key = {(r.repository.lower(), r.number): r for r in extra}
    merged = [by_key.pop((r.repository.lower(), r.number), r) for r in current]
    return merged + list(by_key.values())


def _sorted(lineage: LineageFacts) -> LineageFacts:
    def key(event: LineageEvent) -> tuple[float, int]:
        return (event.merged_at.timestamp() if event.merged_at else 0.0, event.number)

    return LineageFacts(
        reverted_by=sorted(lineage.reverted_by, key=key),
        restored_by=sorted(lineage.restored_by, key=key),
        follows_up=sorted(lineage.follows_up, key=key),
        followed_up_by=sorted(lineage.followed_up_by, key=key),
        restore_diffs=sorted(lineage.restore_diffs, key=lambda d: d.original),
    )
