"""The linked context of a PR's LLM prompt, read from the store (and GitHub for issues).

For each related PR (reverted, restored, followed up, fixed, the one that introduced a fixed
bug) and each ledger predecessor of a dependency change: its title, body without templates
and a short diff summary from its stored record. For each related issue of the same
repository: its title and body when the source can give them (a GitHub PR's issues through
`IssueSource`, fetched once and cached), else why not (a git history has no issues). Most
relevant first (`RELATION_STRENGTH`), at most `MAX_LINKED` items; the prompt fits them to
its budget and lists what it left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from prdigest.analyzers.lineage import RELATION_STRENGTH
from prdigest.errors import NotFound
from prdigest.models.facts import Facts
from prdigest.models.ledger import LedgerLink
from prdigest.models.narrative import RelatedNote
from prdigest.models.pullrequest import PullRequest
from prdigest.narrate.llm.linked import LinkedItem
from prdigest.narrate.llm.prompt import clean_body
from prdigest.sources.github.issues import IssueAnswer
from prdigest.store import facts_store
from prdigest.store.store import Store

MAX_LINKED = 8
# Mentions tell nothing of how two PRs relate: they are not worth the prompt's room.
MIN_STRENGTH = 1
LEDGER_RELATION = "ledger-predecessor"  # the last earlier change of the same requirement
LEDGER_STRENGTH = 6
DIFF_FILES = 6
DIFF_SYMBOLS = 8


class IssueSource(Protocol):
    def issue(self, repository: str, number: int) -> IssueAnswer: ...


def linked_context(
    store: Store,
    pr: PullRequest,
    related: Sequence[RelatedNote],
    ledger: Sequence[LedgerLink],
    issues: IssueSource | None,
) -> list[LinkedItem]:
    """The linked items of `pr`, most relevant first."""
    wanted: dict[int, tuple[int, str, str]] = {}  # number -> (strength, relation, kind)
    for note in related:
        strength = RELATION_STRENGTH.get(note.relation, 0)
        if note.repository.lower() != pr.repository.lower() or strength < MIN_STRENGTH:
            continue
        if note.number not in wanted or wanted[note.number][0] < strength:
            wanted[note.number] = (strength, note.relation, note.kind)
    for link in ledger:
        previous = link.previous
        if previous is not None and previous.number != pr.number and previous.number not in wanted:
            wanted[previous.number] = (LEDGER_STRENGTH, f"{LEDGER_RELATION} ({link.package})", "pr")
    ordered = sorted(wanted.items(), key=lambda item: (-item[1][0], -item[0]))[:MAX_LINKED]
    items: list[LinkedItem] = []
    for number, (_, relation, kind) in ordered:
        stored = _stored_pr(store, pr.repository, number)
        if stored is not None:
            items.append(_pr_item(store, stored, relation))
        elif kind != "pr":
            items.append(_issue_item(pr, number, relation, issues))
    return items


def _stored_pr(store: Store, repository: str, number: int) -> PullRequest | None:
    if store.find_pr_id(repository, number) is None:
        return None
    try:
        return store.get_pr(repository, number)
    except NotFound:
        return None


def _pr_item(store: Store, other: PullRequest, relation: str) -> LinkedItem:
    facts = facts_store.get_facts(store, other.repository, other.number)
    return LinkedItem(
        kind="pr",
        repository=other.repository,
        number=other.number,
        relation=relation,
        title=other.title,
        body=clean_body(other.body),
        diff_summary=diff_summary(other, facts),
    )


def diff_summary(pr: PullRequest, facts: Facts | None) -> str:
    """The PR's largest changes in one line: files with their counts, then changed symbols."""
    files = sorted(pr.files, key=lambda f: (-(f.additions + f.deletions), f.path))
    parts = [f"{f.path} (+{f.additions} −{f.deletions}, {f.status.value})" for f in files[:DIFF_FILES]]
    if len(files) > DIFF_FILES:
        parts.append(f"and {len(files) - DIFF_FILES} more files")
    text = "; ".join(parts) or "no files listed"
    if facts is not None and facts.symbols.symbols:
        symbols = facts.symbols.symbols[:DIFF_SYMBOLS]
        text += "; symbols: " + ", ".join(f"{s.name} ({s.kind} {s.change})" for s in symbols)
    return text


def _issue_item(pr: PullRequest, number: int, relation: str, issues: IssueSource | None) -> LinkedItem:
    def unavailable(why: str) -> LinkedItem:
        return LinkedItem(kind="issue", repository=pr.repository, number=number, relation=relation, unavailable=why)

    if pr.source != "github":
        return unavailable(f"the {pr.source} source has no issues")
    if issues is None:
        return unavailable("no GitHub access was given to fetch it")
    answer = issues.issue(pr.repository, number)
    if answer.issue is None:
        return unavailable(answer.why_not)
    found = answer.issue
    return LinkedItem(
        kind="pr" if found.is_pull_request else "issue",
        repository=pr.repository,
        number=number,
        relation=relation,
        title=found.title,
        body=clean_body(found.body),
    )
