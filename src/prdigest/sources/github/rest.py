"""REST calls of the GitHub source: a PR's file list (with patches) and file contents at a commit.

Also the REST-only listing used without a token (GitHub's GraphQL API requires one).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import quote

from prdigest.errors import GitHubError
from prdigest.sources.github.client import GitHubClient

FILES_PER_PAGE = 100
MAX_LISTED_FILES = 3000  # GitHub lists at most 3,000 files of a PR
KEY_FILE_SUFFIXES = frozenset(
    {
        ".py",
        ".pyi",
        ".c",
        ".h",
        ".cc",
        ".cpp",
        ".cxx",
        ".hh",
        ".hpp",
        ".hxx",
        ".cu",
        ".cuh",
        ".go",
        ".rs",
        ".js",
        ".jsx",
        ".mjs",
        ".cjs",
        ".ts",
        ".tsx",
    }
)
MAX_KEY_FILES = 5


@dataclass(frozen=True)
class KeyFile:
    path: str
    previous_path: str | None
    status: str


def fetch_files(client: GitHubClient, repository: str, number: int, changed_files: int | None) -> list[dict[str, Any]]:
    """Every listed file of the PR, following pages until GitHub's 3,000-file cap.

    Knowing ``changed_files`` (from GraphQL) saves the request for an empty last page.
    """
    expected = min(changed_files, MAX_LISTED_FILES) if changed_files is not None else MAX_LISTED_FILES
    files: list[dict[str, Any]] = []
    page = 1
    while page <= MAX_LISTED_FILES // FILES_PER_PAGE:
        answer = client.rest_get(
            f"repos/{repository}/pulls/{number}/files", {"per_page": FILES_PER_PAGE, "page": page}, kind="files"
        )
        if answer is None:
            raise GitHubError(f"GitHub has no pull request {repository}#{number}")
        if not isinstance(answer.data, list):
            raise GitHubError(f"GitHub answered the files of {repository}#{number} with a non-list")
        files.extend(item for item in answer.data if isinstance(item, dict))
        if len(answer.data) < FILES_PER_PAGE or len(files) >= expected:
            break
        page += 1
    return files


def key_files(files: list[dict[str, Any]], limit: int = MAX_KEY_FILES) -> list[KeyFile]:
    """The largest changed source files (by changed lines) worth reading whole for symbol analysis."""
    candidates = [
        f
        for f in files
        if isinstance(f.get("filename"), str) and PurePosixPath(f["filename"]).suffix.lower() in KEY_FILE_SUFFIXES
    ]
    candidates.sort(key=lambda f: (-(int(f.get("additions") or 0) + int(f.get("deletions") or 0)), f["filename"]))
    return [
        KeyFile(f["filename"], f.get("previous_filename"), str(f.get("status") or "modified"))
        for f in candidates[:limit]
    ]


def fetch_contents(
    client: GitHubClient, repository: str, files: list[KeyFile], base_sha: str | None, head_sha: str | None
) -> list[dict[str, Any]]:
    """Contents objects at base and head of each key file (``contents`` entries of a bundle)."""
    entries: list[dict[str, Any]] = []
    for item in files:
        sides: list[tuple[str, str | None, str]] = []
        if item.status != "added":
            sides.append(("base", base_sha, item.previous_path or item.path))
        if item.status != "removed":
            sides.append(("head", head_sha, item.path))
        for side, sha, path in sides:
            if not sha:
                continue
            answer = client.rest_get(
                f"repos/{repository}/contents/{quote(path, safe='/')}", {"ref": sha}, kind="contents"
            )
            # A directory, a submodule or a missing path has no file contents: skip it.
            if answer is None or not isinstance(answer.data, dict) or answer.data.get("type") != "file":
                continue
            obj = {k: answer.data.get(k) for k in ("type", "encoding", "content", "path", "sha", "size")}
            entries.append({"side": side, "path": path, "ref": sha, "object": obj})
    return entries


# --- REST-only listing (unauthenticated) ----------------------------------------------


def list_pulls(client: GitHubClient, repository: str, state: str) -> Iterator[dict[str, Any]]:
    """Pull objects, most recently updated first (``merged`` filters closed ones on merged_at)."""
    rest_state = {"merged": "closed", "open": "open", "closed": "closed", "all": "all"}[state]
    url: str | None = f"repos/{repository}/pulls"
    params: dict[str, str | int] | None = {
        "state": rest_state,
        "sort": "updated",
        "direction": "desc",
        "per_page": FILES_PER_PAGE,
    }
    while url is not None:
        answer = client.rest_get(url, params, kind="list")
        if answer is None:
            raise GitHubError(f"GitHub has no repository {repository}")
        for item in answer.data if isinstance(answer.data, list) else []:
            if isinstance(item, dict) and (state != "merged" or item.get("merged_at")):
                yield item
        url, params = answer.next_url, None


def fetch_all_pages(client: GitHubClient, path: str, kind: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    url: str | None = path
    params: dict[str, str | int] | None = {"per_page": FILES_PER_PAGE}
    while url is not None:
        answer = client.rest_get(url, params, kind=kind)
        if answer is None:
            return items
        if isinstance(answer.data, list):
            items.extend(i for i in answer.data if isinstance(i, dict))
        url, params = answer.next_url, None
    return items


def fetch_rest_document(client: GitHubClient, repository: str, number: int) -> dict[str, Any]:
    """The REST parts of a bundle (all but files and contents) for one PR."""
    answer = client.rest_get(f"repos/{repository}/pulls/{number}", kind="pull")
    if answer is None or not isinstance(answer.data, dict):
        raise GitHubError(f"GitHub has no pull request {repository}#{number}")
    return {
        "pull": answer.data,
        "commits": fetch_all_pages(client, f"repos/{repository}/pulls/{number}/commits", "commits"),
        "reviews": fetch_all_pages(client, f"repos/{repository}/pulls/{number}/reviews", "reviews"),
        "review_comments": fetch_all_pages(client, f"repos/{repository}/pulls/{number}/comments", "review_comments"),
        "issue_comments": fetch_all_pages(client, f"repos/{repository}/issues/{number}/comments", "issue_comments"),
    }
