"""The record's enumerations, without pydantic: a sync into a new file builds records
(`prdigest.models.plain_records`) without loading the models (see `prdigest.models.pullrequest`)."""

from enum import StrEnum


class PRState(StrEnum):
    OPEN = "open"
    CLOSED = "closed"
    MERGED = "merged"


class FileStatus(StrEnum):
    ADDED = "added"
    MODIFIED = "modified"
    REMOVED = "removed"
    RENAMED = "renamed"
    COPIED = "copied"


class IncompleteReason(StrEnum):
    """Why a record is partial (`PullRequest.incomplete`); analyzers and narrators may say so."""

    # The merge commit's parent is not in a shallow clone: git shows the commit as adding the
    # whole tree, so its files, line counts and branch commits are unknown (and left empty).
    SHALLOW_BOUNDARY = "shallow-clone-boundary"
    # Some of the commits a merge brought in are cut off by a shallow clone.
    SHALLOW_COMMITS = "shallow-clone-commits"
    # The PR landed in several first-parent commits with the same title and number, and
    # another of them changed files too: its diff is not in this record (see
    # `PullRequest.same_number_commits`). Another PR that only shares the number is no gap.
    NUMBER_COLLISION = "number-collision"
    # The clone lacks the blobs of some files the PR changed (a partial clone offline, a
    # damaged copy): those files are left out of its diff, and counted in changed_files_count.
    MISSING_OBJECTS = "missing-objects"


class CoverageGap(StrEnum):
    """File-list gaps the coverage analyzer tells apart from what the source says it listed.

    With `IncompleteReason` these are every code `CoverageFacts.gaps` holds (`GapCode`): one
    vocabulary, so a reason a source records can always be held and told."""

    FILE_LIST_TRUNCATED = "file-list-truncated"
    FILE_LIST_MISSING = "file-list-missing"
