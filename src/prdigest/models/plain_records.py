"""Plain twins of the git source's records, built and written without pydantic.

A sync into a new SQLite file is bound by Python's CPU: loading pydantic and the models,
validating every record and file, then dumping each record cost about a fifth of it. The git
source builds these instead (it makes only valid values) and turns them into the models
(`to_model`) for every other consumer; the new file's writer stores their JSON
(`record_json`), which is byte for byte what ``PullRequest.model_dump_json`` makes without
the files' texts (same field order, same escapes, times as pydantic writes them). Tests
compare the two on every field; `benchmarks/compare_sync.py` on real histories.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import TYPE_CHECKING, Any, TypeAlias

from prdigest.models.states import FileStatus, PRState

if TYPE_CHECKING:
    from prdigest.models.pullrequest import Commit, FileChange, PullRequest, SameNumberCommit

# A record as a writer takes it: the model, or the plain twin a git source builds.
AnyPullRequest: TypeAlias = "PullRequest | PlainPullRequest"


def json_text(value: str | None) -> str:
    """A JSON string as pydantic writes it: UTF-8 left as is, only ``"``, ``\\`` and control
    characters escaped. An ASCII text goes through the standard library's faster ASCII
    escaper, which writes the same but for DEL (it escapes it; pydantic does not)."""
    if value is None:
        return "null"
    if value.isascii() and "\x7f" not in value:
        return str(encode_basestring_ascii(value))
    return str(encode_basestring(value))


def json_time(value: datetime | None) -> str:
    """A time as pydantic's JSON writes it: ISO 8601, a zero offset as ``Z``."""
    if value is None:
        return "null"
    text = value.isoformat()
    return f'"{text[:-6]}Z"' if text.endswith("+00:00") else f'"{text}"'


def _json_int(value: int | None) -> str:
    return "null" if value is None else str(value)


def _json_bool(value: bool) -> str:
    return "true" if value else "false"


def _json_texts(values: list[str]) -> str:
    return f"[{','.join(json_text(v) for v in values)}]"


@dataclass(slots=True)
class PlainFileChange:
    path: str
    previous_path: str | None = None
    status: FileStatus = FileStatus.MODIFIED
    additions: int = 0
    deletions: int = 0
    patch: str | None = None
    binary: bool = False
    truncated: bool = False
    content_before: str | None = None
    content_after: str | None = None

    def json(self) -> str:
        """The JSON object of the file without its two texts, in the model's field order."""
        return (
            f'{{"path":{json_text(self.path)},"previous_path":{json_text(self.previous_path)},'
            f'"status":"{self.status.value}","additions":{self.additions},"deletions":{self.deletions},'
            f'"patch":{json_text(self.patch)},"binary":{_json_bool(self.binary)},'
            f'"truncated":{_json_bool(self.truncated)}}}'
        )

    def to_model(self) -> FileChange:
        from prdigest.models.pullrequest import FileChange

        return FileChange(
            path=self.path,
            previous_path=self.previous_path,
            status=self.status,
            additions=self.additions,
            deletions=self.deletions,
            patch=self.patch,
            binary=self.binary,
            truncated=self.truncated,
            content_before=self.content_before,
            content_after=self.content_after,
        )


@dataclass(slots=True)
class PlainCommit:
    sha: str
    author: str
    author_email: str | None = None
    co_authors: list[str] = field(default_factory=list)
    committed_at: datetime | None = None
    message: str = ""

    @property
    def subject(self) -> str:
        return self.message.split("\n", 1)[0]

    def json(self) -> str:
        return (
            f'{{"sha":{json_text(self.sha)},"author":{json_text(self.author)},'
            f'"author_email":{json_text(self.author_email)},"co_authors":{_json_texts(self.co_authors)},'
            f'"committed_at":{json_time(self.committed_at)},"message":{json_text(self.message)}}}'
        )

    def to_model(self) -> Commit:
        from prdigest.models.pullrequest import Commit

        return Commit(
            sha=self.sha,
            author=self.author,
            author_email=self.author_email,
            co_authors=list(self.co_authors),
            committed_at=self.committed_at,
            message=self.message,
        )


@dataclass(frozen=True, slots=True)
class PlainSameNumberCommit:
    sha: str
    committed_at: datetime | None = None
    subject: str = ""
    files_changed: int = 0
    another_pr: bool = False

    def json(self) -> str:
        return (
            f'{{"sha":{json_text(self.sha)},"committed_at":{json_time(self.committed_at)},'
            f'"subject":{json_text(self.subject)},"files_changed":{self.files_changed},'
            f'"another_pr":{"true" if self.another_pr else "false"}}}'
        )

    def to_model(self) -> SameNumberCommit:
        from prdigest.models.pullrequest import SameNumberCommit

        return SameNumberCommit(
            sha=self.sha,
            committed_at=self.committed_at,
            subject=self.subject,
            files_changed=self.files_changed,
            another_pr=self.another_pr,
        )


@dataclass(slots=True)
class PlainPullRequest:
    """The fields a git source fills; those it never knows (labels, reviews, comments, ...)
    are always empty, as in its models."""

    repository: str
    number: int
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
    additions: int = 0
    deletions: int = 0
    files: list[PlainFileChange] = field(default_factory=list)
    files_truncated: bool = False
    changed_files_count: int | None = None
    commits: list[PlainCommit] = field(default_factory=list)
    source: str = "git"
    incomplete: list[str] = field(default_factory=list)
    same_number_commits: list[PlainSameNumberCommit] = field(default_factory=list)
    # Never filled by git; here so readers of either record type find them (always empty).
    labels: tuple[str, ...] = ()
    reviews: tuple[Any, ...] = ()
    review_threads: tuple[Any, ...] = ()
    comments: tuple[Any, ...] = ()
    closing_issues: tuple[int, ...] = ()

    @property
    def ref(self) -> str:
        return f"{self.repository}#{self.number}"

    def record_json(self) -> str:
        """``PullRequest.model_dump_json(exclude=<every file's two texts>)``, without pydantic."""
        files = ",".join(f.json() for f in self.files)
        commits = ",".join(c.json() for c in self.commits)
        parts = [
            f'{{"repository":{json_text(self.repository)},"number":{self.number},"title":{json_text(self.title)},'
            f'"body":{json_text(self.body)},"author":{json_text(self.author)},"state":"{self.state.value}",'
            f'"created_at":{json_time(self.created_at)},"updated_at":{json_time(self.updated_at)},'
            f'"merged_at":{json_time(self.merged_at)},"closed_at":{json_time(self.closed_at)},'
            f'"url":{json_text(self.url)},"base_ref":{json_text(self.base_ref)},"head_ref":{json_text(self.head_ref)},'
            f'"base_sha":{json_text(self.base_sha)},"head_sha":{json_text(self.head_sha)},'
            f'"merge_commit_sha":{json_text(self.merge_commit_sha)},"labels":[],'
            f'"additions":{self.additions},"deletions":{self.deletions},"files":[{files}],'
            f'"files_truncated":{_json_bool(self.files_truncated)},'
            f'"changed_files_count":{_json_int(self.changed_files_count)},"commits":[{commits}],'
            '"reviews":[],"review_threads":[],"comments":[],"closing_issues":[],'
            f'"source":{json_text(self.source)}'
        ]
        if self.incomplete:  # left out when empty, as the model's exclude_if
            parts.append(f',"incomplete":{_json_texts(self.incomplete)}')
        if self.same_number_commits:
            parts.append(f',"same_number_commits":[{",".join(c.json() for c in self.same_number_commits)}]')
        parts.append("}")
        return "".join(parts)

    def to_model(self) -> PullRequest:
        from prdigest.models.pullrequest import PullRequest

        return PullRequest(
            repository=self.repository,
            number=self.number,
            title=self.title,
            body=self.body,
            author=self.author,
            state=self.state,
            created_at=self.created_at,
            updated_at=self.updated_at,
            merged_at=self.merged_at,
            closed_at=self.closed_at,
            url=self.url,
            base_ref=self.base_ref,
            head_ref=self.head_ref,
            base_sha=self.base_sha,
            head_sha=self.head_sha,
            merge_commit_sha=self.merge_commit_sha,
            additions=self.additions,
            deletions=self.deletions,
            files=[f.to_model() for f in self.files],
            files_truncated=self.files_truncated,
            changed_files_count=self.changed_files_count,
            commits=[c.to_model() for c in self.commits],
            source=self.source,
            incomplete=list(self.incomplete),
            same_number_commits=[c.to_model() for c in self.same_number_commits],
        )
