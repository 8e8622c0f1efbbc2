"""Convert a completed GraphQL pull-request node (+ REST files and contents) into a `Bundle`.

The bundle keeps REST shapes so that hand-made bundles, REST-only syncs and GraphQL syncs all
meet in the one normalizer. Review threads also keep their GraphQL shape (REST has no
``isResolved``/``isOutdated``).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from prdigest.errors import GitHubError
from prdigest.sources.github.bundle import describe_validation_error
from prdigest.sources.github.bundle_models import FORMAT_VERSION, Bundle


def rest_user(actor: Any) -> dict[str, Any] | None:
    if not isinstance(actor, dict) or not actor.get("login"):
        return None
    return {"login": actor["login"], "type": "Bot" if actor.get("__typename") == "Bot" else "User"}


def _nodes(node: dict[str, Any], connection: str) -> list[dict[str, Any]]:
    return list((node.get(connection) or {}).get("nodes") or [])


def _oid(value: Any) -> str | None:
    return value.get("oid") if isinstance(value, dict) else None


def pull_from_graphql(node: dict[str, Any], repository: str) -> dict[str, Any]:
    return {
        "number": node["number"],
        "node_id": node.get("id"),
        "title": node.get("title") or "",
        "body": node.get("body"),
        "state": "open" if node.get("state") == "OPEN" else "closed",
        "draft": node.get("isDraft"),
        "user": rest_user(node.get("author")),
        "created_at": node.get("createdAt"),
        "updated_at": node.get("updatedAt"),
        "closed_at": node.get("closedAt"),
        "merged_at": node.get("mergedAt"),
        "html_url": node.get("url"),
        "base": {
            "ref": node.get("baseRefName") or "",
            "sha": node.get("baseRefOid") or "",
            "repo": {"full_name": repository},
        },
        "head": {"ref": node.get("headRefName") or "", "sha": node.get("headRefOid") or ""},
        "merge_commit_sha": _oid(node.get("mergeCommit")),
        "labels": [{"name": label.get("name", "")} for label in _nodes(node, "labels")],
        "additions": node.get("additions"),
        "deletions": node.get("deletions"),
        "changed_files": node.get("changedFiles"),
    }


def _commit(item: dict[str, Any]) -> dict[str, Any]:
    commit = item.get("commit") or {}
    author = commit.get("author") or {}
    user = author.get("user")
    return {
        "sha": commit.get("oid"),
        "commit": {
            "message": commit.get("message") or "",
            "author": {
                "name": author.get("name") or "",
                "email": author.get("email"),
                "date": commit.get("authoredDate"),
            },
        },
        "author": {"login": user["login"], "type": "User"} if isinstance(user, dict) and user.get("login") else None,
    }


def _review(item: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": item.get("databaseId"),
        "node_id": item.get("id"),
        "user": rest_user(item.get("author")),
        "body": item.get("body"),
        "state": item.get("state") or "COMMENTED",
        "submitted_at": item.get("submittedAt"),
        "commit_id": _oid(item.get("commit")),
    }


def _review_comment(item: dict[str, Any], thread: dict[str, Any]) -> dict[str, Any]:
    reply = item.get("replyTo")
    return {
        "id": item.get("databaseId"),
        "node_id": item.get("id"),
        "user": rest_user(item.get("author")),
        "body": item.get("body") or "",
        "path": item.get("path") or thread.get("path") or "",
        "line": item.get("line"),
        "original_line": item.get("originalLine"),
        "diff_hunk": item.get("diffHunk"),
        "created_at": item.get("createdAt"),
        "commit_id": _oid(item.get("commit")),
        "in_reply_to_id": reply.get("databaseId") if isinstance(reply, dict) else None,
    }


def _issue_comment(item: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": item.get("databaseId"),
        "node_id": item.get("id"),
        "user": rest_user(item.get("author")),
        "body": item.get("body"),
        "created_at": item.get("createdAt"),
    }


def _thread(thread: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": thread.get("id"),
        "isResolved": bool(thread.get("isResolved")),
        "isOutdated": bool(thread.get("isOutdated")),
        "path": thread.get("path") or "",
        "line": thread.get("line"),
        "originalLine": thread.get("originalLine"),
        "comments": {"nodes": [dict(c) for c in _nodes(thread, "comments")]},
    }


def bundle_from_graphql(
    node: dict[str, Any],
    repository: str,
    files: list[dict[str, Any]],
    contents: list[dict[str, Any]],
) -> Bundle:
    threads = _nodes(node, "reviewThreads")
    document = {
        "format_version": FORMAT_VERSION,
        "repository": repository,
        "source": "github",
        "pull": pull_from_graphql(node, repository),
        "files": files,
        "commits": [_commit(c) for c in _nodes(node, "commits")],
        "reviews": [_review(r) for r in _nodes(node, "reviews")],
        "review_comments": [_review_comment(c, t) for t in threads for c in _nodes(t, "comments")],
        "issue_comments": [_issue_comment(c) for c in _nodes(node, "comments")],
        "review_threads": [_thread(t) for t in threads],
        "closing_issues_references": [
            {"number": ref.get("number"), "repository": ref.get("repository")}
            for ref in _nodes(node, "closingIssuesReferences")
        ],
        "contents": contents,
    }
    return validate_document(document, f"{repository}#{node.get('number')}")


def validate_document(document: dict[str, Any], origin: str) -> Bundle:
    """Validate a bundle built from API answers; a GitHub answer of the wrong shape is a GitHubError."""
    try:
        # JSON round trip so strict mode sees the same types as a bundle read from disk.
        return Bundle.model_validate_json(json.dumps(document))
    except ValidationError as exc:
        raise GitHubError("unexpected GitHub answer shape:\n" + describe_validation_error(origin, exc)) from None
