"""GraphQL: one query per page of PRs (with their first reviews, threads, comments, commits...),
then ``node(id:)`` queries for any nested connection that did not fit on that page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from prdigest.errors import GitHubError
from prdigest.sources.github.client import GitHubClient

PAGE_INFO = "pageInfo { hasNextPage endCursor }"
ACTOR = "author { login __typename }"
REVIEW_COMMENT_FIELDS = (
    f"id databaseId body createdAt path line originalLine diffHunk {ACTOR} commit {{ oid }} replyTo {{ databaseId }}"
)
# Nested page sizes keep a 25-PR page far below GitHub's 500,000-node limit.
THREAD_COMMENTS_FIRST = 20
THREAD_FIELDS = (
    "id isResolved isOutdated path line originalLine "
    f"comments(first: {THREAD_COMMENTS_FIRST}) {{ {PAGE_INFO} nodes {{ {REVIEW_COMMENT_FIELDS} }} }}"
)
# connection name -> (first page size inside the PR page, fields of each node)
PR_CONNECTIONS: dict[str, tuple[int, str]] = {
    "labels": (20, "name"),
    "reviews": (30, f"id databaseId state body submittedAt {ACTOR} commit {{ oid }}"),
    "reviewThreads": (30, THREAD_FIELDS),
    "comments": (30, f"id databaseId body createdAt {ACTOR}"),
    "commits": (50, "commit { oid message authoredDate author { name email user { login } } }"),
    "closingIssuesReferences": (10, "number repository { nameWithOwner }"),
}
PR_SCALARS = (
    "id number title body url state isDraft createdAt updatedAt mergedAt closedAt "
    "baseRefName headRefName baseRefOid headRefOid additions deletions changedFiles "
    f"mergeCommit {{ oid }} {ACTOR} baseRepository {{ nameWithOwner }}"
)
FOLLOW_UP_FIRST = 100
STATES = {"merged": ["MERGED"], "open": ["OPEN"], "closed": ["CLOSED"], "all": ["OPEN", "CLOSED", "MERGED"]}


def _pr_fields() -> str:
    connections = " ".join(
        f"{name}(first: {first}) {{ {PAGE_INFO} nodes {{ {fields} }} }}"
        for name, (first, fields) in PR_CONNECTIONS.items()
    )
    return f"{PR_SCALARS} {connections}"


PULL_REQUEST_PAGE_QUERY = (
    "query PullRequestPage($owner: String!, $name: String!, $states: [PullRequestState!], "
    "$first: Int!, $after: String) { repository(owner: $owner, name: $name) { "
    "pullRequests(first: $first, after: $after, states: $states, orderBy: {field: UPDATED_AT, direction: DESC}) "
    f"{{ {PAGE_INFO} nodes {{ {_pr_fields()} }} }} }} }}"
)


def connection_query(node_type: str, connection: str, fields: str) -> tuple[str, str]:
    """(operation name, query) for the next page of ``connection`` of the node ``$id``."""
    operation = f"{node_type}_{connection}"
    query = (
        f"query {operation}($id: ID!, $after: String) {{ node(id: $id) {{ ... on {node_type} {{ "
        f"{connection}(first: {FOLLOW_UP_FIRST}, after: $after) {{ {PAGE_INFO} nodes {{ {fields} }} }} }} }} }}"
    )
    return operation, query


@dataclass(frozen=True)
class PullRequestPage:
    nodes: list[dict[str, Any]]
    has_next: bool
    end_cursor: str | None


def fetch_pull_request_page(
    client: GitHubClient, repository: str, state: str, first: int, after: str | None
) -> PullRequestPage:
    owner, _, name = repository.partition("/")
    data = client.graphql(
        PULL_REQUEST_PAGE_QUERY,
        {"owner": owner, "name": name, "states": STATES[state], "first": first, "after": after},
        "PullRequestPage",
    )
    repo = data.get("repository")
    if not isinstance(repo, dict):
        raise GitHubError(f"GitHub has no repository {repository} (or the token cannot see it)")
    connection = _mapping(repo.get("pullRequests"), "repository.pullRequests")
    info = _mapping(connection.get("pageInfo"), "pullRequests.pageInfo")
    nodes = [n for n in connection.get("nodes") or [] if isinstance(n, dict)]
    return PullRequestPage(nodes, bool(info.get("hasNextPage")), info.get("endCursor"))


def complete_pull_request(client: GitHubClient, node: dict[str, Any]) -> dict[str, Any]:
    """Follow every overflowing nested connection; each becomes ``{"nodes": [...all...]}``."""
    for connection, (_first, fields) in PR_CONNECTIONS.items():
        node[connection] = {"nodes": _all_nodes(client, "PullRequest", node, connection, fields)}
    comment_fields = REVIEW_COMMENT_FIELDS
    for thread in node["reviewThreads"]["nodes"]:
        thread["comments"] = {
            "nodes": _all_nodes(client, "PullRequestReviewThread", thread, "comments", comment_fields)
        }
    return node


def _all_nodes(
    client: GitHubClient, node_type: str, owner: dict[str, Any], connection: str, fields: str
) -> list[dict[str, Any]]:
    current = owner.get(connection) or {}
    nodes: list[dict[str, Any]] = [n for n in current.get("nodes") or [] if isinstance(n, dict)]
    info = current.get("pageInfo") or {}
    operation, query = connection_query(node_type, connection, fields)
    while info.get("hasNextPage"):
        node_id = owner.get("id")
        if not isinstance(node_id, str):
            raise GitHubError(f"GitHub GraphQL: a {node_type} without an id has more {connection}")
        data = client.graphql(query, {"id": node_id, "after": info.get("endCursor")}, operation)
        found = _mapping(data.get("node"), f"node({node_type}).{connection}")
        page = _mapping(found.get(connection), f"{node_type}.{connection}")
        nodes.extend(n for n in page.get("nodes") or [] if isinstance(n, dict))
        info = page.get("pageInfo") or {}
    return nodes


def _mapping(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise GitHubError(f"GitHub GraphQL answer lacks {where}")
    return value
