"""A local git clone as a source of ``PullRequest`` records, streamed one at a time.

Merged PRs come from ONE ``git log -p --first-parent`` of the default branch (squash commits
``Title (#N)`` and ``Merge pull request #N from ...``); open ones from ``refs/pull/N/head``.
Records are yielded newest first so ``--limit`` can stop git early.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prdigest.errors import NoPullRequestsFound, SourceError
from prdigest.models.plain_records import PlainCommit, PlainPullRequest, PlainSameNumberCommit
from prdigest.models.states import IncompleteReason, PRState
from prdigest.sources.git.blob_pipeline import BlobPipeline
from prdigest.sources.git.branch_commits import CommitObject, FirstParentChain, branch_commits
from prdigest.sources.git.cat_file import CatFile
from prdigest.sources.git.clone import GitClone, GitSyncOptions
from prdigest.sources.git.collisions import CollisionPlan, plan_collisions
from prdigest.sources.git.contents import ContentTicket, PipelinedContents, fill_contents
from prdigest.sources.git.diff_files import ParsedPatch, parse_patch
from prdigest.sources.git.log_stream import LogStream, RawCommit
from prdigest.sources.git.missing_objects import MissingBlobs, find_missing_blobs
from prdigest.sources.git.pull_refs import PullRef, read_pull_ref
from prdigest.sources.git.recognize import PATTERNS_LOOKED_FOR, PRShape, RecognizedPR, recognize
from prdigest.sources.git.trailers import co_authors
from prdigest.sources.protocol import StoredLookup, SyncState, nothing_stored

if TYPE_CHECKING:
    from prdigest.models.pullrequest import PullRequest

# Look-ahead of the merged-PR walk: commits parsed (and blobs asked for) before the oldest
# of them is finished. Small: it only has to cover git's latency, and it bounds memory.
_WINDOW_COMMITS = 16
_WINDOW_BLOBS = 256


@dataclass(frozen=True, slots=True)
class _PendingPR:
    commit: RawCommit
    found: RecognizedPR
    patch: ParsedPatch
    branch_head: str | None  # a merge's second parent, whose commit object is asked for
    ticket: ContentTicket | None


class GitSource(GitClone):
    """``for pr in GitSource(path, options).pull_requests(state, stored): ...`` (a `Source`)."""

    def __init__(self, path: Path, options: GitSyncOptions) -> None:
        super().__init__(path, options)
        self._start_records()

    @classmethod
    def taking_over(cls, clone: GitClone) -> GitSource:
        """The source of a clone already prepared (git asked, its ``git log`` perhaps
        started): it takes the clone over, which then holds nothing to close."""
        source = cls.__new__(cls)
        source.adopt(clone)
        source._start_records()
        return source

    def _start_records(self) -> None:
        self._seen: set[int] = set()
        self._collisions = CollisionPlan()
        self._missing: MissingBlobs | None = None  # found when git stops on a lacking blob

    # --- records ------------------------------------------------------------------------

    def pull_requests(
        self, state: SyncState | None = None, stored: StoredLookup = nothing_stored
    ) -> Iterator[PullRequest]:
        """Merged and open PRs, newest first, honouring ``since`` and ``limit``; with the
        ``state`` of the last complete sync, only those of the commits and refs new since.

        Every record is read from git whatever is stored, so ``stored`` is not consulted.
        """
        return (record.to_model() for record in self.plain_pull_requests(state))

    def plain_pull_requests(self, state: SyncState | None = None) -> Iterator[PlainPullRequest]:
        """The same records as `pull_requests`, as built, without the models (pydantic):
        for a writer that stores their JSON (`prdigest.store.new_sqlite`)."""
        self.previous_state = dict(state or {})
        return self._pull_requests()

    def _pull_requests(self) -> Iterator[PlainPullRequest]:
        limit = self.options.limit
        with CatFile(self.repo) as reader:
            merged = self._merged_prs(reader)
            opened = self._open_refs()
            next_merged = next(merged, None)
            next_open = next(opened, None)
            yielded = 0
            while (next_merged is not None or next_open is not None) and (limit is None or yielded < limit):
                take_open = next_open is not None and (
                    next_merged is None or next_open.committed_at > (next_merged.merged_at or next_open.committed_at)
                )
                if take_open and next_open is not None:
                    yield self._open_pr(reader, next_open)
                    next_open = next(opened, None)
                elif next_merged is not None:
                    yield next_merged
                    next_merged = next(merged, None)
                yielded += 1
            merged.close()
        if self.counters.pr_commits == 0 and self.counters.open_refs == 0 and not self.incremental:
            raise NoPullRequestsFound(self._nothing_found_message())

    def _nothing_found_message(self) -> str:
        looked = "; ".join(PATTERNS_LOOKED_FOR)
        since = f" merged since {self.options.since:%Y-%m-%d}" if self.options.since else ""
        return (
            f"no pull requests{since} found on {self.branch} of {self.path} (looked for {looked}); "
            "check the branch (--branch) or widen --since/--limit"
        )

    def _merged_prs(self, reader: CatFile) -> Generator[PlainPullRequest, None, None]:
        started, self._log = self._log, None
        revision_range = self._log_range()
        extra = self._log_extra()
        if started is not None and (started.revision_range, list(started.extra)) != (revision_range, extra):
            started.close()
            started = None
        if revision_range is None:
            return
        log = started or LogStream(self.repo, revision_range, extra)
        try:
            yield from self._merged_from_log(reader, log)
        finally:
            log.close()

    def _merged_from_log(self, reader: CatFile, log: LogStream) -> Generator[PlainPullRequest, None, None]:
        subjects, self._subjects = self._subjects, None
        self._collisions = plan_collisions(self.repo, self.tip, subjects)
        chain = FirstParentChain(self.repo, self.tip, self._collisions.chain)
        with BlobPipeline(self.repo) as pipeline:
            contents = PipelinedContents(pipeline, reader) if self.options.with_contents else None
            # Commits whose objects are asked for but not yet read: git looks them up while
            # the next commits are parsed. Bounded, so memory stays flat.
            window: deque[_PendingPR] = deque()
            resumed: list[LogStream] = []
            try:
                current = log
                while True:
                    try:
                        yield from self._walk(current, window, reader, chain, pipeline, contents)
                        break
                    except SourceError:
                        again = None if resumed else self._without_missing_blobs(current)
                        if again is None:
                            raise
                        resumed.append(again)
                        current = again
            except SourceError:
                # git died at a later commit (an object the clone lacks): the PRs already
                # read are whole, so they are given before the error goes on.
                while window:
                    yield self._merged_pr(reader, chain, pipeline, contents, window.popleft())
                raise
            finally:
                for stream in resumed:
                    stream.close()
            while window:
                yield self._merged_pr(reader, chain, pipeline, contents, window.popleft())

    def _without_missing_blobs(self, failed: LogStream) -> LogStream | None:
        """The walk again from the commit git stopped at, the files whose blobs the clone
        lacks left out of every diff; None when that is not why git stopped."""
        if failed.unreadable is None:
            return None
        missing = find_missing_blobs(self.repo, failed.revision_range, list(failed.extra))
        if not missing.by_commit:
            return None
        self._missing = missing
        self.counters.files_without_contents = len(missing.paths)
        revision_range = failed.revision_range
        if failed.stopped_at is not None:
            # Where git stopped: the commit it was writing was not given, so it is read again.
            floor, dots, _tip = revision_range.partition("..")
            revision_range = f"{floor}..{failed.stopped_at}" if dots else failed.stopped_at
        # --sparse: a commit that changed only such files is still walked (and still a PR).
        return LogStream(self.repo, revision_range, (*failed.extra, "--sparse"), missing.exclusions())

    def _walk(
        self,
        log: LogStream,
        window: deque[_PendingPR],
        reader: CatFile,
        chain: FirstParentChain,
        pipeline: BlobPipeline,
        contents: PipelinedContents | None,
    ) -> Generator[PlainPullRequest, None, None]:
        """The log's PR commits into `window`, yielding the oldest once the window is full."""
        since = self.options.since
        for commit in log.commits():
            self.counters.commits_read += 1
            found = recognize(commit.message)
            if found is None:
                continue
            self.counters.pr_commits += 1
            if self._collisions.skip(found.number, commit.sha):
                continue  # another commit of this number is the record (see collisions.py)
            if found.number in self._seen or (since is not None and commit.committed_at < since):
                continue
            self._seen.add(found.number)
            self._count_collision(found.number)
            patch = parse_patch(commit.patch)
            self.counters.invalid_utf8_files += patch.invalid_utf8_files
            branch_head = _branch_head(found, commit)
            if branch_head is not None:
                pipeline.request([branch_head])  # taken first, before the contents
            ticket = contents.ask(patch.files) if contents is not None else None
            window.append(_PendingPR(commit, found, patch, branch_head, ticket))
            while window and (len(window) > _WINDOW_COMMITS or pipeline.outstanding > _WINDOW_BLOBS):
                yield self._merged_pr(reader, chain, pipeline, contents, window.popleft())

    def _merged_pr(
        self,
        reader: CatFile,
        chain: FirstParentChain,
        pipeline: BlobPipeline,
        contents: PipelinedContents | None,
        pending: _PendingPR,
    ) -> PlainPullRequest:
        commit, found, patch = pending.commit, pending.found, pending.patch
        branch: list[CommitObject] = []
        if pending.branch_head is not None:
            head_object = pipeline.take(1)[0]
            branch = branch_commits(
                reader,
                chain,
                pending.branch_head,
                head_object=head_object if isinstance(head_object, bytes) else None,
                base=commit.parents[0] if commit.parents else None,
            )
        if contents is not None and pending.ticket is not None:
            self.counters.blobs_read += contents.fill(pending.ticket)
        own = _commit_record(commit)
        first = branch[0] if branch else None
        incomplete = self._shallow_reasons(commit, branch, found.number)
        same_number, collision_reasons = self._same_number(found.number)
        incomplete.extend(collision_reasons)
        unreadable = self._missing.by_commit.get(commit.sha, ()) if self._missing is not None else ()
        if unreadable:
            incomplete.append(IncompleteReason.MISSING_OBJECTS.value)
            self.counters.prs_without_contents.append(found.number)
        if IncompleteReason.SHALLOW_BOUNDARY in incomplete:
            patch = ParsedPatch(files=[])  # git's diff of a cut-off commit is the whole tree
        return _record(
            repository=self.repository,
            number=found.number,
            title=found.title,
            body=found.body,
            author=first.author_name if first else commit.author_name,
            state=PRState.MERGED,
            created_at=(first.authored_at if first else None) or commit.authored_at,
            updated_at=commit.committed_at,
            merged_at=commit.committed_at,
            closed_at=commit.committed_at,
            base_ref=self.base_ref,
            head_ref=_head_branch(found.branch),
            base_sha=commit.parents[0] if commit.parents else None,
            head_sha=commit.parents[1] if found.shape is PRShape.MERGE and len(commit.parents) > 1 else commit.sha,
            merge_commit_sha=commit.sha,
            patch=patch,
            commits=[c.to_commit() for c in branch] or [own],
            incomplete=incomplete,
            same_number_commits=same_number,
            files_unread=len(unreadable),
        )

    def _count_collision(self, number: int) -> None:
        collision = self._collisions.notes_for(number)
        if collision is not None:
            self.counters.collisions.setdefault(collision.resolution.value, []).append(number)
            self.counters.collisions_kept_by.setdefault(collision.kept_by.value, []).append(number)

    def _same_number(self, number: int) -> tuple[list[PlainSameNumberCommit], list[str]]:
        """The other commits of this number, and the incomplete reason when a part of this
        same PR (not another PR sharing the number) changed files."""
        collision = self._collisions.notes_for(number)
        if collision is None:
            return [], []
        missing = any(c.files_changed and not c.another_pr for c in collision.others)
        reasons = [IncompleteReason.NUMBER_COLLISION.value] if missing else []
        return list(collision.others), reasons

    def _shallow_reasons(self, commit: RawCommit, branch: list[CommitObject], number: int) -> list[str]:
        """Why a merged PR is only partly known in a shallow clone (nothing in a full one)."""
        if not self.shallow:
            return []
        reasons: list[str] = []
        if commit.sha in self.shallow:
            reasons.append(IncompleteReason.SHALLOW_BOUNDARY.value)
        elif any(c.sha in self.shallow for c in branch):
            reasons.append(IncompleteReason.SHALLOW_COMMITS.value)
        if reasons:
            self.incomplete_numbers.append(number)
        return reasons

    def _open_pr(self, reader: CatFile, ref: PullRef) -> PlainPullRequest:
        self.counters.open_refs += 1
        content = read_pull_ref(self.repo, self.tip, ref)
        patch = self._patch(reader, content.patch)
        commits = content.commits
        first = commits[0] if commits else None
        head = commits[-1] if commits else None
        titled = recognize(first.message) if first else None
        title = titled.title if titled else (first.message.split("\n", 1)[0].strip() if first else "")
        body = titled.body if titled else (first.message.partition("\n")[2].strip("\n") if first else "")
        return _record(
            repository=self.repository,
            number=ref.number,
            title=title or f"refs/pull/{ref.number}/head",
            body=body,
            author=first.author_name if first else None,
            state=PRState.OPEN,
            created_at=first.authored_at if first else None,
            updated_at=head.committed_at if head else ref.committed_at,
            merged_at=None,
            closed_at=None,
            base_ref=self.base_ref,
            head_ref=None,
            base_sha=content.base_sha,
            head_sha=ref.sha,
            merge_commit_sha=None,
            patch=patch,
            commits=[_commit_record(c) for c in commits],
        )

    def _patch(self, reader: CatFile, patch: ParsedPatch) -> ParsedPatch:
        # Open PRs are few: their contents are read directly, not pipelined.
        self.counters.invalid_utf8_files += patch.invalid_utf8_files
        if self.options.with_contents:
            self.counters.blobs_read += fill_contents(reader, patch.files)
        return patch


def _record(
    *,
    repository: str,
    number: int,
    patch: ParsedPatch,
    incomplete: list[str] | None = None,
    files_unread: int = 0,
    **fields: Any,
) -> PlainPullRequest:
    """``files_unread``: changed files left out because the clone lacks their blobs."""
    files = [parsed.change for parsed in patch.files]
    if incomplete and IncompleteReason.SHALLOW_BOUNDARY in incomplete:
        fields["files_truncated"] = True  # the files are unknown, not "none"
    return PlainPullRequest(
        repository=repository,
        number=number,
        url=f"https://github.com/{repository}/pull/{number}",
        additions=sum(f.additions for f in files),
        deletions=sum(f.deletions for f in files),
        files=files,
        changed_files_count=None if fields.get("files_truncated") else len(files) + files_unread,
        source="git",
        incomplete=incomplete or [],
        **fields,
    )


def _commit_record(commit: RawCommit) -> PlainCommit:
    return PlainCommit(
        sha=commit.sha,
        author=commit.author_name,
        author_email=commit.author_email or None,
        co_authors=co_authors(commit.message),
        committed_at=commit.committed_at,
        message=commit.message,
    )


def _branch_head(found: RecognizedPR, commit: RawCommit) -> str | None:
    return commit.parents[1] if found.shape is PRShape.MERGE and len(commit.parents) > 1 else None


def _head_branch(branch: str | None) -> str | None:
    """``owner/feature-x`` (GitHub's merge subject) → ``feature-x``."""
    if branch is None:
        return None
    return branch.split("/", 1)[1] if "/" in branch else branch
