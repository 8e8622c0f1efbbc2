"""The normalized pull-request record: every source produces exactly this.

A `PullRequest` is JSON-serializable (``model_dump_json`` / ``model_validate_json``) and
is what the store keeps as the source record, so analysis can be re-run without
re-fetching. Optional fields are ``None`` when the source does not know them (a git
clone knows no reviews; GitHub knows no co-author trailers unless commits say so).
"""

import hashlib
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, field_validator

from prdigest.models.factories import new_list
from prdigest.models.states import FileStatus as FileStatus
from prdigest.models.states import IncompleteReason as IncompleteReason
from prdigest.models.states import PRState as PRState


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False, defer_build=True)


class FileChange(_Record):
    path: str
    previous_path: str | None = None
    status: FileStatus = FileStatus.MODIFIED
    additions: int = 0
    deletions: int = 0
    patch: str | None = None
    binary: bool = False
    # True when the source cut the patch (GitHub omits patches of huge files).
    truncated: bool = False
    # Full contents before/after, when the source could read them cheaply; analyzers
    # fall back to the patch when these are None.
    content_before: str | None = None
    content_after: str | None = None


class Commit(_Record):
    sha: str
    author: str
    author_email: str | None = None
    co_authors: list[str] = Field(default_factory=new_list)
    committed_at: datetime | None = None
    message: str = ""

    @property
    def subject(self) -> str:
        return self.message.split("\n", 1)[0]


class SameNumberCommit(_Record):
    """Another commit of the main line carrying this PR's number, not used for the record."""

    sha: str
    committed_at: datetime | None = None
    subject: str = ""
    files_changed: int = 0  # 0: an empty commit
    # True: another pull request that happens to carry the number (an older history merged
    # in, a commit citing an issue), not a part of this one (see sources/git/collisions.py).
    another_pr: bool = False


class Review(_Record):
    author: str
    state: str  # APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED, PENDING
    submitted_at: datetime | None = None
    body: str = ""
    author_is_bot: bool = False
    commit_sha: str | None = None


class ReviewComment(_Record):
    author: str
    body: str
    created_at: datetime | None = None
    author_is_bot: bool = False
    commit_sha: str | None = None
    id: str | None = None
    in_reply_to: str | None = None


class ReviewThread(_Record):
    path: str
    line: int | None = None
    original_line: int | None = None
    diff_hunk: str | None = None
    comments: list[ReviewComment] = Field(default_factory=new_list)
    # None when the source does not know (REST review comments carry no resolution).
    resolved: bool | None = None
    outdated: bool | None = None


class Comment(_Record):
    author: str
    body: str
    created_at: datetime | None = None
    author_is_bot: bool = False


class PullRequest(_Record):
    """One pull request, as complete as its source could make it."""

    repository: str  # OWNER/NAME
    number: int = Field(ge=1)
    title: str
    body: str = ""
    author: str | None = None
    state: PRState = PRState.MERGED
    created_at: datetime | None = None
    updated_at: datetime | None = None
    merged_at: datetime | None = None
    closed_at: datetime | None = None
    url: str | None = None
    base_ref: str | None = None
    head_ref: str | None = None
    base_sha: str | None = None
    head_sha: str | None = None
    merge_commit_sha: str | None = None
    labels: list[str] = Field(default_factory=new_list)
    additions: int = 0
    deletions: int = 0
    files: list[FileChange] = Field(default_factory=new_list)
    # True when the source could not list every file (GitHub stops at 3,000).
    files_truncated: bool = False
    changed_files_count: int | None = None
    commits: list[Commit] = Field(default_factory=new_list)
    reviews: list[Review] = Field(default_factory=new_list)
    review_threads: list[ReviewThread] = Field(default_factory=new_list)
    comments: list[Comment] = Field(default_factory=new_list)
    closing_issues: list[int] = Field(default_factory=new_list)
    source: str = "git"  # git | github | bundle
    # Why the source knows this PR only in part: codes from `IncompleteReason` (values are
    # strings so a newer source's codes still load). Empty, it is left out of the JSON, so
    # complete records (nearly all) keep their stored form and content hash.
    incomplete: list[str] = Field(default_factory=new_list, exclude_if=lambda reasons: not reasons)
    # Other main-line commits with the same number (a git source's number collision), left
    # out of the JSON when empty for the same reason as `incomplete`.
    same_number_commits: list[SameNumberCommit] = Field(
        default_factory=new_list, exclude_if=lambda commits: not commits
    )

    @field_validator("repository")
    @classmethod
    def _owner_slash_name(cls, value: str) -> str:
        owner, sep, name = value.partition("/")
        if not sep or not owner or not name or "/" in name:
            raise ValueError(f"repository must be OWNER/NAME, got {value!r}")
        return value

    @property
    def ref(self) -> str:
        return f"{self.repository}#{self.number}"

    def content_hash(self) -> str:
        """A stable digest of the whole record: equal records hash equal."""
        return hashlib.sha256(self.model_dump_json().encode("utf-8")).hexdigest()
