"""Pydantic models of the GitHub objects a bundle holds (see docs/bundle-format.md).

REST objects allow extra keys (real GitHub answers carry many more) but the keys prdigest
reads are typed strictly, so ``"additions": "12"`` is rejected rather than guessed at.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

FORMAT_VERSION = 1
# Numbers end up in database columns (PR numbers, line counts: 32-bit INTEGER on PostgreSQL)
# or in text (ids), so they are bounded here: a bundle saying 2**70 is rejected with its JSON
# path instead of overflowing the store. GitHub's real values are far below either bound.
MAX_COUNT = 2**31 - 1
MAX_ID = 2**63 - 1
Number = Annotated[int, Field(ge=1, le=MAX_COUNT)]  # PR and issue numbers
Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]  # line and file counts, line numbers
Id = Annotated[int, Field(ge=0, le=MAX_ID)]  # REST ids and GraphQL databaseIds


class _Rest(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True, populate_by_name=True)


class RestUser(_Rest):
    login: str
    type: str = "User"


class RestRepo(_Rest):
    full_name: str


class RestRef(_Rest):
    ref: str
    sha: str
    repo: RestRepo | None = None


class RestLabel(_Rest):
    name: str


class RestPull(_Rest):
    number: Number
    title: str
    body: str | None = None
    state: Literal["open", "closed"]
    user: RestUser | None = None
    created_at: datetime
    updated_at: datetime
    closed_at: datetime | None = None
    merged_at: datetime | None = None
    html_url: str | None = None
    base: RestRef
    head: RestRef
    merge_commit_sha: str | None = None
    labels: list[RestLabel] = Field(default_factory=list)
    additions: Count | None = None
    deletions: Count | None = None
    changed_files: Count | None = None
    draft: bool | None = None


class RestFile(_Rest):
    filename: str
    status: Literal["added", "removed", "modified", "renamed", "copied", "changed", "unchanged"]
    additions: Count
    deletions: Count
    changes: Count | None = None
    patch: str | None = None
    previous_filename: str | None = None
    sha: str | None = None


class RestGitActor(_Rest):
    name: str
    email: str | None = None
    date: datetime | None = None


class RestGitCommit(_Rest):
    message: str
    author: RestGitActor | None = None


class RestCommit(_Rest):
    sha: str
    commit: RestGitCommit
    author: RestUser | None = None


class RestReview(_Rest):
    id: Id | None = None
    user: RestUser | None = None
    body: str | None = None
    state: str
    submitted_at: datetime | None = None
    commit_id: str | None = None


class RestReviewComment(_Rest):
    id: Id | None = None
    user: RestUser | None = None
    body: str
    path: str
    line: Count | None = None
    original_line: Count | None = None
    diff_hunk: str | None = None
    created_at: datetime | None = None
    commit_id: str | None = None
    in_reply_to_id: Id | None = None


class RestIssueComment(_Rest):
    id: Id | None = None
    user: RestUser | None = None
    body: str | None = None
    created_at: datetime | None = None


class RestContent(_Rest):
    """``GET /repos/{o}/{r}/contents/{path}?ref=SHA`` for a file."""

    type: str = "file"
    encoding: str | None = None  # "base64", or "none" for files over 1 MB
    content: str | None = None
    path: str
    sha: str | None = None


class ContentAt(_Rest):
    side: Literal["base", "head"]
    path: str
    ref: str
    object: RestContent


class GqlActor(_Rest):
    login: str
    typename: str = Field(default="User", alias="__typename")


class GqlOid(_Rest):
    oid: str


class GqlDatabaseId(_Rest):
    databaseId: Id | None = None


class GqlReviewComment(_Rest):
    databaseId: Id | None = None
    body: str
    createdAt: datetime | None = None
    path: str | None = None
    line: Count | None = None
    originalLine: Count | None = None
    diffHunk: str | None = None
    author: GqlActor | None = None
    commit: GqlOid | None = None
    replyTo: GqlDatabaseId | None = None


class GqlCommentNodes(_Rest):
    nodes: list[GqlReviewComment]


class GqlReviewThread(_Rest):
    isResolved: bool
    isOutdated: bool
    path: str
    line: Count | None = None
    originalLine: Count | None = None
    comments: GqlCommentNodes


class GqlRepositoryName(_Rest):
    nameWithOwner: str


class GqlIssueRef(_Rest):
    number: Number
    repository: GqlRepositoryName | None = None


class Bundle(BaseModel):
    """One pull request as GitHub describes it, in REST shapes (plus GraphQL review threads)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    format_version: Literal[1]
    repository: str | None = None  # OWNER/NAME; defaults to pull.base.repo.full_name
    source: Literal["github", "bundle"] = "bundle"
    pull: RestPull
    files: list[RestFile]
    commits: list[RestCommit]
    reviews: list[RestReview]
    review_comments: list[RestReviewComment]
    issue_comments: list[RestIssueComment]
    review_threads: list[GqlReviewThread] | None = None
    closing_issues_references: list[GqlIssueRef] = Field(default_factory=list)
    contents: list[ContentAt] = Field(default_factory=list)
