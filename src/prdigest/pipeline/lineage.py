"""The cross-PR pass: what one PR's facts can only know once the others are analyzed.

Run after `analyze_stored` (whenever it analyzed anything). For one repository it
1. resolves reverts that name the reverted commit only by SHA to the PR whose merge or
   squash commit it is (a ``reverts`` reference with the SHA as evidence);
2. tells each PR who reverted or restored it, and when (`Facts.lineage`);
3. compares each restore / re-land with what the restored PR added (`RestoreDiff`);
4. names the root cause of a fix: the earlier PR that wrote most of the lines it changes
   (`Facts.origins`, from git blame; see pipeline/origins.py), and "fixed by" on that PR;
5. links follow-ups both ways: an explicit "follow-up to #A", a ``TODO(#N)`` / "tracked in
   #N" done by a later PR, and a deferral ("relax once 14.1.1 ships", "unpin once #58
   lands") that a later PR's dependency change or reference carries out.
Only facts that change are written. Everything is derived from stored records and facts.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import PurePosixPath

from prdigest.analyzers.dependencies.moves import move_sources
from prdigest.analyzers.lineage import RELATION_STRENGTH, blame_evidence, reland_evidence
from prdigest.analyzers.restore_diff import readded_lines, restore_diff
from prdigest.analyzers.root_cause import RootCauseRule, central_paths, find_root_cause
from prdigest.errors import NotFound
from prdigest.models.facts import (
    Deferral,
    Facts,
    FollowUp,
    LineageEvent,
    LineageFacts,
    Reference,
    Relation,
    RestoreDiff,
    RootCause,
)
from prdigest.pipeline.ledger import prs_ledger_entries
from prdigest.pipeline.ledger_place import place_changes
from prdigest.pipeline.origins import clone_of
from prdigest.pipeline.shared_lines import lines_written_by
from prdigest.store import facts_store
from prdigest.store.facts_store import get_facts
from prdigest.store.lineage_queries import (
    CommitOwners,
    PRMoment,
    facts_containing,
    pr_by_commit,
    pr_moments,
    replace_facts,
)
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
    root_causes: int = 0
    relands: int = 0  # restores found by their diff alone
    follow_ups: dict[str, int] = field(default_factory=dict)  # by how they were matched
    told_by_history: int = 0  # stated fixes and mentions the history typed otherwise
    updated: int = 0


class _Pass:
    def __init__(self, store: Store, repository: str, root_cause_rule: RootCauseRule) -> None:
        self.store = store
        self.root_cause_rule = root_cause_rule
        self.repository = repository
        self.moments = pr_moments(store, repository)
        self.facts: dict[int, Facts] = {}
        self.lineage: dict[int, LineageFacts] = defaultdict(LineageFacts)
        self.extra_refs: dict[int, list[Reference]] = defaultdict(list)
        self.stats = LineageStats()
        self.clone = clone_of(store, repository)
        self.owners = CommitOwners(store, repository, self.moments)

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

    def later_event(self, number: int, on: int, evidence: str) -> LineageEvent:
        """`number`'s event on the earlier PR `on`, with the days between their merges."""
        event = self.event(number, evidence)
        event.days_after = _days_between(self.when(on), event.merged_at)
        return event

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
            if link.target_repository.lower() != self.repository.lower() or link.found_in in _PASS_FINDINGS:
                continue  # another repository's, or this pass's own finding (made again below)
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
                self.lineage[target].reverted_by.append(self.later_event(source, target, ref.evidence))
                self.stats.reverted += 1
            elif ref.relation == "restores":
                self.lineage[target].restored_by.append(self.later_event(source, target, ref.evidence))
                self.stats.restored += 1
                diff = self.restore_diff(target, source)
                if diff is not None:
                    self.lineage[source].restore_diffs.append(diff)
                    self.stats.restore_diffs += 1

    def relands(self, links: list[tuple[int, Reference]]) -> None:
        """A later PR that adds again most of what a reverted PR added restores it, said or
        not: the re-land under the same title, the feature brought back in a larger change.
        Candidates touch the reverted PR's most-changed file and were merged after the revert."""
        stated = {(source, ref.number) for source, ref in links if ref.relation in ("restores", "reverts")}
        for original, lineage in sorted(self.lineage.items()):
            reverts = [e for e in lineage.reverted_by if e.merged_at is not None]
            if not reverts or original not in self.moments:
                continue
            reverted_at = min(e.merged_at for e in reverts if e.merged_at is not None)
            reverters = {e.number for e in lineage.reverted_by}
            try:
                before = self.store.get_pr(self.repository, original)
            except NotFound:
                continue
            main = max(before.files, key=lambda f: (f.additions, f.path), default=None)
            if main is None or main.additions < RELAND_MIN_LINES:
                continue
            needle = json.dumps({"path": main.path}, separators=(",", ":"))[1:-1]
            for item in self.remember(facts_containing(self.store, self.repository, needle)):
                number = item.number
                when = self.when(number)
                if number == original or number in reverters or when is None or when <= reverted_at:
                    continue
                if (number, original) in stated or any(e.number == number for e in lineage.restored_by):
                    continue
                try:
                    candidate = self.store.get_pr(self.repository, number)
                except NotFound:
                    continue
                again, total = readded_lines(before, candidate)
                if total < RELAND_MIN_LINES or again / total < RELAND_MIN_SHARE:
                    continue
                evidence = reland_evidence(again, total, original)
                self.extra_refs[number].append(
                    Reference(
                        repository=self.repository,
                        number=original,
                        target_kind="pr",
                        relation="restores",
                        where="git-diff",
                        evidence=evidence,
                    )
                )
                lineage.restored_by.append(self.later_event(number, original, evidence))
                self.stats.restored += 1
                diff = self.restore_diff(original, number)
                if diff is not None:
                    self.lineage[number].restore_diffs.append(diff)
                    self.stats.restore_diffs += 1
                self.stats.relands += 1
                break  # the first re-land restores it; later ones build on that

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

    def root_causes(self, links: list[tuple[int, Reference]]) -> None:
        """A fix whose changed lines were mostly written by one earlier PR: that PR is where
        what it fixes came from (said with the count of lines, never as a guess). A revert or
        a restore changes another PR's lines by design, and what a PR states of the blamed PR
        (it restores it, follows it up) is not overruled by blame."""
        stated: dict[int, dict[int, Relation]] = defaultdict(dict)
        for source, ref in links:
            stated[source][ref.number] = ref.relation
        for item in self.remember(facts_containing(self.store, self.repository, '"origins":{')):
            if item.origins is None or {"reverts", "restores"} & set(stated[item.number].values()):
                continue
            found = find_root_cause(item.origins, item.number, central_paths(item), self.root_cause_rule)
            if found is None or found.number not in self.moments or not self.later(item.number, found.number):
                continue
            if stated[item.number].get(found.number, "mentions") != "mentions":
                continue
            evidence = blame_evidence(found.lines, found.of_lines, found.commit)
            days = _days_between(self.when(found.number), self.when(item.number))
            for owner, other in ((item.number, found.number), (found.number, item.number)):
                moment = self.event(other, evidence)
                cause = RootCause(
                    repository=moment.repository,
                    number=moment.number,
                    title=moment.title,
                    merged_at=moment.merged_at,
                    evidence=evidence,
                    lines=found.lines,
                    of_lines=found.of_lines,
                    paths=list(found.paths),
                    days_between=days,
                )
                target = self.lineage[owner]
                (target.root_cause_in if owner == item.number else target.fixed_by).append(cause)
            self.extra_refs[item.number].append(
                Reference(
                    repository=self.repository,
                    number=found.number,
                    target_kind="pr",
                    relation="root-cause-in",
                    where="git-blame",
                    evidence=evidence,
                )
            )
            self.stats.root_causes += 1

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

    def history_relations(self, links: list[tuple[int, Reference]]) -> None:
        """Relations the history tells where the PR's words do not (`told_by_history`)."""
        for source, ref in links:
            if ref.where in _PASS_FINDINGS or ref.repository.lower() != self.repository.lower():
                continue
            told = self.told_by_history(source, ref)
            if told is None or told == ref.relation:
                continue
            kind = {"target_kind": "pr"} if told == "follow-up-to" else {}
            self.extra_refs[source].append(ref.model_copy(update={"relation": told, **kind}))
            if told == "follow-up-to":
                self.link_follow_up(ref.number, source, ref.evidence, "", "reference")
            self.stats.told_by_history += 1

    def told_by_history(self, source: int, ref: Reference) -> Relation | None:
        """What the history makes of a stated fix or a mention: "fixes #M" of an earlier merged
        PR fixes what that PR did, a follow-up (what a PR fixes is an issue); a number the
        title names with no word for how ("Add the missing changelog line (#40)") is followed
        up when an earlier merged PR has it, and the issue the PR addresses when no synced PR
        has it and it is smaller (issues and PRs share one sequence); a mention of an earlier
        merged PR whose file's counterpart this PR edits ("Sync with #14600" editing
        docs/de/index.md after docs/en/index.md), or one the PR's own words name and whose
        lines it rewrites (git blame), follows it up; a revert or a root cause that no PR has is the
        issue addressed; a follow-up of "PR #M" that was never merged re-does it."""
        target = self.moments.get(ref.number)
        merged_earlier = target is not None and target.state == "merged" and self.later(source, ref.number)
        if ref.relation == "fixes":
            return "follow-up-to" if merged_earlier else None
        if ref.relation == "root-cause-in":
            # Only merged code holds a bug: "fix the regression in #M" where no PR has that
            # number names the issue reporting it.
            return "fixes" if self.is_issue_number(ref.number, source) else None
        if ref.relation == "reverts":
            # "Revert std::malloc to malloc (#4569)": the verb's object is the code; the number
            # ending the title, which no PR has, is the issue. "Revert #1433" reverts #1433
            # (a PR merged without its number in the history, perhaps).
            ends_title = re.search(rf"\(\s*#{ref.number}\s*\)\s*$", ref.evidence) is not None
            return "fixes" if ends_title and self.is_issue_number(ref.number, source) else None
        if ref.relation == "follow-up-to" and self.is_issue_number(ref.number, source):
            # "builds upon PR #443" where #443 was never merged: this PR re-does it.
            named_pr = re.search(rf"\b(?:pr|pull request)\s*#{ref.number}\b", ref.evidence, re.I) is not None
            return "restores" if named_pr else None
        if ref.relation != "mentions":
            return None
        if ref.where == "title":
            if merged_earlier:
                return "follow-up-to"
            return "fixes" if self.is_issue_number(ref.number, source) else None
        if merged_earlier and self.edits_counterparts(source, ref.number):
            return "follow-up-to"
        if merged_earlier and ref.where in _OWN_WORDS and self.rewrites_lines_of(source, ref.number):
            return "follow-up-to"
        return None

    def is_issue_number(self, number: int, source: int) -> bool:
        """Whether `number` is no synced PR's and smaller than `source` (issues and PRs share
        one sequence, so it is an issue, or a PR never merged)."""
        return number not in self.moments and number < source

    def rewrites_lines_of(self, source: int, target: int) -> bool:
        """Whether `source` changes lines `target` wrote (git blame of the files both changed)."""
        if self.clone is None:
            return False
        mine, theirs = self.facts_of(source), self.facts_of(target)
        record_commit = self.merge_commit(source)
        if mine is None or theirs is None or record_commit is None:
            return False
        their_paths = {f.path for f in theirs.files.files}
        shared = [
            f.path
            for f in mine.files.files
            if f.status in ("modified", "renamed") and not f.generated and not f.binary and f.path in their_paths
        ]
        if not shared:
            return False

        def number_of(sha: str, look_up: bool) -> int | None:
            return self.owners.number_of(sha, source, look_up)

        return lines_written_by(self.clone, record_commit, shared, target, number_of) > 0

    def merge_commit(self, number: int) -> str | None:
        try:
            return self.store.get_pr(self.repository, number).merge_commit_sha
        except NotFound:
            return None

    def edits_counterparts(self, source: int, target: int) -> bool:
        """Whether `source` edits a file whose counterpart `target` edited: the same name at
        the same depth, one directory apart (a translation, a platform's copy)."""
        mine, theirs = self.facts_of(source), self.facts_of(target)
        if mine is None or theirs is None:
            return False
        their_paths = [PurePosixPath(f.path).parts for f in theirs.files.files]
        for file in mine.files.files:
            parts = PurePosixPath(file.path).parts
            for other in their_paths:
                same_place = len(other) == len(parts) and other[-1] == parts[-1]
                if same_place and sum(a != b for a, b in zip(parts[:-1], other[:-1], strict=True)) == 1:
                    return True
        return False

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

    def ledger_follow_ups(self, links: list[tuple[int, Reference]]) -> None:
        """A dependency change after #N's change of the same requirement (the ledger's
        previous entry) follows #N up when the PR names #N or exactly undoes #N's change:
        "#40 pinned cupy < 14.1.0 …; relax it" is more than a mention."""
        named: dict[int, dict[int, Reference]] = defaultdict(dict)
        for source, ref in links:
            named[source][ref.number] = ref
        items = [
            f
            for f in self.remember(facts_containing(self.store, self.repository, '"package":"'))
            if f.dependencies.changes
        ]
        for item, entries in zip(items, prs_ledger_entries(self.store, self.repository, items), strict=True):
            moved = move_sources(item.dependencies.changes)
            for change, link in zip(item.dependencies.changes, place_changes(item.number, item, entries), strict=True):
                previous = link.previous
                if (change.package, change.path) in moved:
                    continue  # the declaration moved to another file: it follows nothing up
                if previous is None or previous.number == item.number or not self.later(item.number, previous.number):
                    continue
                stated = named[item.number].get(previous.number)
                # A constraint change taken back exactly (not a removal of what was added once).
                undoes = (
                    None not in (previous.before, previous.after)
                    and previous.after == change.before
                    and previous.before == change.after
                )
                if stated is None and not undoes:
                    continue
                what = f"{change.package}: {previous.before or '—'} → {previous.after or '—'} by #{previous.number}"
                evidence = stated.evidence if stated is not None and stated.evidence else f"undoes {what}"
                if stated is None or RELATION_STRENGTH[stated.relation] < RELATION_STRENGTH["follow-up-to"]:
                    upgraded = Reference(
                        repository=self.repository,
                        number=previous.number,
                        target_kind="pr",
                        relation="follow-up-to",
                        where=stated.where if stated is not None else "ledger",
                        evidence=evidence,
                    )
                    self.extra_refs[item.number].append(upgraded)
                    named[item.number][previous.number] = upgraded
                self.link_follow_up(previous.number, item.number, evidence, what, "dependency")

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
        for where in _PASS_FINDINGS:
            for item in self.remember(facts_containing(self.store, self.repository, f'"where":"{where}"')):
                numbers.add(item.number)
        changed: list[Facts] = []
        for number in sorted(numbers):
            current = self.facts_of(number)
            if current is None:
                continue
            lineage = _sorted(self.lineage.get(number, LineageFacts()))
            # This pass's findings: those the last pass made are dropped, then made again.
            own = [r for r in current.references.references if r.where not in _PASS_FINDINGS]
            refs = _merge_refs(own, self.extra_refs.get(number, []))
            if lineage == current.lineage and refs == current.references.references:
                continue
            references = current.references.model_copy(update={"references": refs})
            changed.append(current.model_copy(update={"lineage": lineage, "references": references}))
        return changed


def link_repository(store: Store, repository: str, root_cause_rule: RootCauseRule | None = None) -> LineageStats:
    """Run the cross-PR pass over one repository; write the facts it changes."""
    run = _Pass(store, repository, root_cause_rule or RootCauseRule())
    run.resolve_reverted_shas()
    links = run.links()
    run.reverts_and_restores(links)
    run.relands(links)
    run.root_causes(links)
    # Before the stated follow-ups: a follow-up the ledger proves is told as such on every pass.
    run.ledger_follow_ups(links)
    run.history_relations(links)
    run.explicit_follow_ups(links)
    run.todo_removals(links)
    run.deferred_dependencies()
    run.waited_for(links)
    changed = run.changed_facts()
    replace_facts(store, repository, changed)
    run.stats.updated = len(changed)
    return run.stats


# A later PR restores a reverted one when it adds again at least this share of the
# reverted PR's (meaningful) added lines, and that PR added at least this many.
_PASS_FINDINGS = ("git-blame", "git-diff", "ledger")
_OWN_WORDS = ("title", "body", "commit")  # where the PR speaks for itself
RELAND_MIN_SHARE = 0.6
RELAND_MIN_LINES = 5


def _days_between(earlier: datetime | None, later: datetime | None) -> int | None:
    if earlier is None or later is None:
        return None
    return max(0, (later - earlier).days)


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
        root_cause_in=sorted(lineage.root_cause_in, key=key),
        fixed_by=sorted(lineage.fixed_by, key=key),
    )
