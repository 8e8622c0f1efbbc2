"""Read models of the cross-PR pass (pipeline/lineage.py) and of the fact audit.

Facts are JSON text (same schema on SQLite and PostgreSQL), so "which PRs have a reverted
commit / a deferral / a change of package P" is a ``LIKE`` on the facts body: a scan, but a
cheap one next to analysis, run once per `analyze`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, func, select

from prdigest.models.facts import Facts
from prdigest.store.facts_store import facts_row, save_facts_rows
from prdigest.store.schema import facts, pr_links, pull_requests, repositories
from prdigest.store.store import Store


@dataclass(frozen=True)
class PRMoment:
    number: int
    title: str
    merged_at: datetime | None
    state: str
    head_sha: str | None = None


def pr_moments(store: Store, repository: str) -> dict[int, PRMoment]:
    """Every stored PR of the repository: title, merge time, state and head, by number."""
    query = (
        select(
            pull_requests.c.number,
            pull_requests.c.title,
            pull_requests.c.merged_at,
            pull_requests.c.state,
            pull_requests.c.head_sha,
        )
        .join(repositories, repositories.c.id == pull_requests.c.repository_id)
        .where(repositories.c.full_name == repository)
    )
    with store._engine.connect() as connection:
        return {int(r[0]): PRMoment(int(r[0]), str(r[1]), r[2], str(r[3]), r[4]) for r in connection.execute(query)}


def pr_by_commit(store: Store, repository: str, sha: str, *, exclude: int | None = None) -> int | None:
    """The PR whose merge (or squash) commit is `sha` (a prefix of 7+ hex digits), else the PR
    whose head or one of whose commits it is; None when no stored PR has it."""
    prefix = sha.lower()
    if len(prefix) < 7 or any(ch not in "0123456789abcdef" for ch in prefix):
        return None
    base = (
        select(pull_requests.c.number)
        .join(repositories, repositories.c.id == pull_requests.c.repository_id)
        .where(repositories.c.full_name == repository)
        .order_by(pull_requests.c.number)
    )
    if exclude is not None:
        base = base.where(pull_requests.c.number != exclude)
    tiers = (
        pull_requests.c.record.like(f'%"merge_commit_sha":"{prefix}%'),
        pull_requests.c.head_sha.like(f"{prefix}%"),
        pull_requests.c.record.like(f'%"sha":"{prefix}%'),
    )
    with store._engine.connect() as connection:
        for condition in tiers:
            numbers = [int(r[0]) for r in connection.execute(base.where(condition).limit(2))]
            if len(numbers) == 1:
                return numbers[0]
            if numbers:
                return None  # an ambiguous prefix names no PR
    return None


class CommitOwners:
    """Which stored PR a commit belongs to: the PR whose squash commit or head it is (known
    from `pr_moments`), else, when asked to look it up, the one `pr_by_commit` finds (a scan of
    the records, made once per commit)."""

    def __init__(self, store: Store, repository: str, moments: dict[int, PRMoment]) -> None:
        self._store = store
        self._repository = repository
        self._by_head = {m.head_sha: m.number for m in moments.values() if m.head_sha}
        self._looked_up: dict[str, int | None] = {}

    def number_of(self, sha: str, own: int, look_up: bool) -> int | None:
        """The PR of `sha` other than `own`; without `look_up`, only what is known already."""
        if sha in self._by_head:
            return self._by_head[sha]
        if look_up and sha not in self._looked_up:
            self._looked_up[sha] = pr_by_commit(self._store, self._repository, sha, exclude=own)
        return self._looked_up.get(sha)


def _containing(text: str) -> str:
    """A LIKE pattern (escape character ``\\``) matching any text that holds ``text`` literally."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def facts_containing(store: Store, repository: str, needle: str) -> list[Facts]:
    """Facts of the repository's PRs whose JSON contains `needle` (a literal, no wildcards)."""
    query = (
        select(facts.c.body)
        .join(pull_requests, pull_requests.c.id == facts.c.pull_request_id)
        .join(repositories, repositories.c.id == pull_requests.c.repository_id)
        .where(and_(repositories.c.full_name == repository, facts.c.body.like(_containing(needle), escape="\\")))
        .order_by(pull_requests.c.number)
    )
    with store._engine.connect() as connection:
        return [Facts.model_validate_json(r[0]) for r in connection.execute(query)]


def facts_lacking(store: Store, repository: str, needle: str, mark: str) -> bool:
    """Whether some facts of the repository contain ``needle`` but not ``mark`` (literals)."""
    query = (
        select(facts.c.pull_request_id)
        .join(pull_requests, pull_requests.c.id == facts.c.pull_request_id)
        .join(repositories, repositories.c.id == pull_requests.c.repository_id)
        .where(
            and_(
                repositories.c.full_name == repository,
                facts.c.body.like(_containing(needle), escape="\\"),
                ~facts.c.body.like(_containing(mark), escape="\\"),
            )
        )
        .limit(1)
    )
    with store._engine.connect() as connection:
        return connection.execute(query).first() is not None


def all_facts(store: Store, repository: str) -> list[Facts]:
    """Every analyzed PR's facts (for audits; the pass reads only what it needs)."""
    return facts_containing(store, repository, "")


def replace_facts(store: Store, repository: str, changed: Sequence[Facts]) -> None:
    """Write facts changed by the cross-PR pass, keeping each PR's cache key (its analysis
    did not change; the pass runs again whenever any PR of the repository is analyzed)."""
    if not changed:
        return
    numbers = [f.number for f in changed]
    query = (
        select(pull_requests.c.number, pull_requests.c.id, facts.c.cache_key)
        .join(repositories, repositories.c.id == pull_requests.c.repository_id)
        .join(facts, facts.c.pull_request_id == pull_requests.c.id)
        .where(and_(repositories.c.full_name == repository, pull_requests.c.number.in_(numbers)))
    )
    with store._engine.connect() as connection:
        keys = {int(r[0]): (int(r[1]), str(r[2])) for r in connection.execute(query)}
    save_facts_rows(store, [facts_row(keys[f.number][0], f, keys[f.number][1]) for f in changed if f.number in keys])


def relation_counts(store: Store, repository: str) -> Counter[str]:
    """Stored outgoing links of the repository's PRs, by relation."""
    query = (
        select(pr_links.c.relation, func.count())
        .join(pull_requests, pull_requests.c.id == pr_links.c.pull_request_id)
        .join(repositories, repositories.c.id == pull_requests.c.repository_id)
        .where(repositories.c.full_name == repository)
        .group_by(pr_links.c.relation)
    )
    with store._engine.connect() as connection:
        return Counter({str(r[0]): int(r[1]) for r in connection.execute(query)})


def incomplete_records(store: Store, repository: str) -> list[tuple[int, str]]:
    """PRs whose stored record says it is partial: (number, record JSON, without the files'
    full texts when the row holds them apart: see file_texts)."""
    query = (
        select(pull_requests.c.number, pull_requests.c.record)
        .join(repositories, repositories.c.id == pull_requests.c.repository_id)
        .where(
            and_(
                repositories.c.full_name == repository,
                pull_requests.c.record.like('%"incomplete":[%')
                | pull_requests.c.record.like('%"same_number_commits":[%'),
            )
        )
        .order_by(pull_requests.c.number)
    )
    with store._engine.connect() as connection:
        return [(int(r[0]), str(r[1])) for r in connection.execute(query)]


def repositories_in(store: Store) -> list[str]:
    with store._engine.connect() as connection:
        return [str(r[0]) for r in connection.execute(select(repositories.c.full_name).order_by(repositories.c.id))]
