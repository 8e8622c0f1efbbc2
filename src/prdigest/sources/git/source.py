"""A local git clone as a source of ``PullRequest`` records, streamed one at a time.

Merged PRs come from ONE ``git log -p --first-parent`` of the default branch (squash commits
``Title (#N)`` and ``Merge pull request #N from ...``); open ones from ``refs/pull/N/head``.
Records are yielded newest first so ``--limit`` can stop git early.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from prdigest.errors import NoPullRequestsFound
from prdigest.models.pullrequest import Commit, IncompleteReason, PRState, PullRequest, SameNumberCommit
from prdigest.sources.git.blob_pipeline import BlobPipeline
from prdigest.sources.git.branch_commits import CommitObject, FirstParentChain, branch_commits
from prdigest.sources.git.cat_file import CatFile
from prdigest.sources.git.collisions import CollisionPlan, list_subjects, plan_collisions
from prdigest.sources.git.contents import ContentTicket, PipelinedContents, fill_contents
from prdigest.sources.git.diff_files import ParsedPatch, parse_patch
from prdigest.sources.git.log_stream import LogStream, RawCommit
from prdigest.sources.git.pull_refs import PullRef, list_pull_refs, merged_pr_numbers, read_pull_ref
from prdigest.sources.git.recognize import PATTERNS_LOOKED_FOR, PRShape, RecognizedPR, recognize
from prdigest.sources.git.repository import default_branch, repository_name, resolve_commit
from prdigest.sources.git.runner import PendingGitText, check_repository, try_git_text
from prdigest.sources.git.shallow import shallow_boundary
from prdigest.sources.git.trailers import co_authors
from prdigest.sources.protocol import StoredLookup, SyncState, nothing_stored

# Look-ahead of the merged-PR walk: commits parsed (and blobs asked for) before the oldest
# of them is finished. Small: it only has to cover git's latency, and it bounds memory.
_WINDOW_COMMITS = 16
_WINDOW_BLOBS = 256

# Bump when the records this source builds change shape: a stored sync state from another
# format forces a full re-read instead of an incremental one.
STATE_FORMAT = 1


@dataclass(frozen=True, slots=True)
class _PendingPR:
    commit: RawCommit
    found: RecognizedPR
    patch: ParsedPatch
    branch_head: str | None  # a merge's second parent, whose commit object is asked for
    ticket: ContentTicket | None


@dataclass(frozen=True, slots=True)
class GitSyncOptions:
    repository: str | None = None  # OWNER/NAME; default: from the origin remote
    branch: str | None = None  # default: origin/HEAD, else HEAD
    since: datetime | None = None  # only PRs merged (or, when open, updated) since
    limit: int | None = None  # only the N newest PRs
    with_contents: bool = True  # read before/after texts of changed source files


@dataclass(slots=True)
class GitSyncCounters:
    commits_read: int = 0
    pr_commits: int = 0
    open_refs: int = 0
    blobs_read: int = 0
    invalid_utf8_files: int = 0
    # Numbers carried by several first-parent commits, by how each was resolved.
    collisions: dict[str, list[int]] = field(default_factory=dict)


class GitSource:
    """``for pr in GitSource(path, options).pull_requests(state, stored): ...`` (a `Source`)."""

    name = "git"
    commit_each = False  # records come fast: written in batches while git works

    def __init__(self, path: Path, options: GitSyncOptions) -> None:
        self.path = path
        self.options = options
        self.repo = check_repository(path)
        self.repository = repository_name(self.repo, options.repository)
        self.branch = default_branch(self.repo, options.branch)
        tip = resolve_commit(self.repo, self.branch)
        assert tip is not None  # default_branch only returns refs that resolve
        self.tip = tip
        self.base_ref = _short_branch(self.repo, self.branch)
        self.counters = GitSyncCounters()
        self.incremental = False
        self.previous_state: SyncState = {}  # from the last complete sync
        self._seen: set[int] = set()
        self._ref_heads: dict[str, str] = {}  # open refs: number -> head SHA, for the next sync
        self._log: LogStream | None = None  # started early by start_log
        self._subjects: PendingGitText | None = None  # the collisions' listing, likewise
        # A shallow clone's cut-off commits (None: a full clone), and the PRs marked for them.
        self.shallow = shallow_boundary(self.repo)
        self.incomplete_numbers: list[int] = []
        self._collisions = CollisionPlan()

    # --- state --------------------------------------------------------------------------

    @property
    def complete(self) -> bool:
        """Whether this sync reads the whole history (so its tip can seed the next one)."""
        return self.options.limit is None and self.options.since is None

    def resume_state(self) -> SyncState | None:
        """The state to resume from next time: only a sync that read everything has one."""
        return self.sync_state() if self.complete else None

    def sync_state(self) -> SyncState:
        state: SyncState = {
            "branch": self.branch,
            "contents": self.options.with_contents,
            "format": STATE_FORMAT,
            "refs": dict(sorted(self._ref_heads.items(), key=lambda item: int(item[0]))),
            "tip": self.tip,
        }
        if self.shallow is not None:
            # Remembered so that a later sync of the deepened clone reads everything again
            # (the PR at the old boundary is then complete); full clones keep their old state.
            state["shallow"] = sorted(self.shallow)
        return state

    def _same_setup(self) -> bool:
        previous = self.previous_state
        current = self.sync_state()
        keys = ("branch", "contents", "format", "shallow")
        return all(previous.get(key) == current.get(key) for key in keys)

    def _log_range(self) -> str | None:
        """The revisions to read: all, only those newer than the last complete sync, or none."""
        last_tip = self.previous_state.get("tip")
        if not self._same_setup() or not isinstance(last_tip, str):
            return self.tip
        if last_tip == self.tip:
            self.incremental = True
            return None
        if try_git_text(self.repo, ["merge-base", "--is-ancestor", last_tip, self.tip]) is not None:
            self.incremental = True
            return f"{last_tip}..{self.tip}"
        return self.tip  # history was rewritten: read it all again

    def nothing_new(self, state: SyncState, kept: Callable[[SyncState], bool]) -> bool:
        """Whether a sync resuming from ``state`` would read no record and save nothing:
        the branch tip is the one ``state`` ends at, no open ref moved, and ``kept`` (the
        store's word) says the resume state handed back is the one already saved. Only a
        complete sync is judged (``--since``/``--limit`` are partial).

        Runs no ``git log``; on False nothing is left changed, so the sync goes on as usual.
        """
        if not self.complete or not state:
            return False
        self.previous_state = dict(state)
        if self._log_range() is None and next(self._open_refs(), None) is None and kept(self.sync_state()):
            return True
        self.previous_state, self.incremental, self._ref_heads = {}, False, {}
        self.counters.open_refs = 0
        return False

    # --- records ------------------------------------------------------------------------

    def pull_requests(
        self, state: SyncState | None = None, stored: StoredLookup = nothing_stored
    ) -> Iterator[PullRequest]:
        """Merged and open PRs, newest first, honouring ``since`` and ``limit``; with the
        ``state`` of the last complete sync, only those of the commits and refs new since.

        Every record is read from git whatever is stored, so ``stored`` is not consulted.
        """
        self.previous_state = dict(state or {})
        return self._pull_requests()

    def _pull_requests(self) -> Iterator[PullRequest]:
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

    def start_log(self) -> None:
        """Start ``git log`` over the whole history now, while the caller still prepares.

        For a sync known to read everything (a new database, ``--full``): git then works
        while the database is created. Used only if the range turns out to be the same.
        """
        if self._log is None:
            self._log = LogStream(self.repo, self.tip, self._log_extra())
        if self._subjects is None:
            self._subjects = list_subjects(self.repo, self.tip)

    def close(self) -> None:
        """Stop a ``git log`` started by ``start_log`` and never read."""
        log, self._log = self._log, None
        if log is not None:
            log.close()
        subjects, self._subjects = self._subjects, None
        if subjects is not None:
            subjects.close()

    def _log_extra(self) -> list[str]:
        since = self.options.since
        return [f"--since={since.isoformat()}"] if since is not None else []

    def _merged_prs(self, reader: CatFile) -> Generator[PullRequest, None, None]:
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

    def _merged_from_log(self, reader: CatFile, log: LogStream) -> Generator[PullRequest, None, None]:
        since = self.options.since
        chain = FirstParentChain(self.repo, self.tip)
        subjects, self._subjects = self._subjects, None
        self._collisions = plan_collisions(self.repo, self.tip, subjects)
        with BlobPipeline(self.repo) as pipeline:
            contents = PipelinedContents(pipeline, reader) if self.options.with_contents else None
            # Commits whose objects are asked for but not yet read: git looks them up while
            # the next commits are parsed. Bounded, so memory stays flat.
            window: deque[_PendingPR] = deque()
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
            while window:
                yield self._merged_pr(reader, chain, pipeline, contents, window.popleft())

    def _merged_pr(
        self,
        reader: CatFile,
        chain: FirstParentChain,
        pipeline: BlobPipeline,
        contents: PipelinedContents | None,
        pending: _PendingPR,
    ) -> PullRequest:
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
        )

    def _count_collision(self, number: int) -> None:
        collision = self._collisions.notes_for(number)
        if collision is not None:
            self.counters.collisions.setdefault(collision.resolution.value, []).append(number)

    def _same_number(self, number: int) -> tuple[list[SameNumberCommit], list[str]]:
        """The other commits of this number, and the incomplete reason when one had a diff."""
        collision = self._collisions.notes_for(number)
        if collision is None:
            return [], []
        reasons = [IncompleteReason.NUMBER_COLLISION.value] if any(c.files_changed for c in collision.others) else []
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

    def _open_refs(self) -> Iterator[PullRef]:
        refs = list_pull_refs(self.repo)
        if not refs:
            return
        merged = merged_pr_numbers(self.repo, self.tip)
        since = self.options.since
        known = self.previous_state.get("refs") if self._same_setup() else None
        known_heads: dict[str, str] = known if isinstance(known, dict) else {}
        for ref in refs:
            if ref.number in merged:
                continue
            self._ref_heads[str(ref.number)] = ref.sha
            if known_heads.get(str(ref.number)) == ref.sha:
                self.counters.open_refs += 1
                continue  # stored by an earlier sync and unchanged since
            if since is not None and ref.committed_at < since:
                continue
            yield ref

    def _open_pr(self, reader: CatFile, ref: PullRef) -> PullRequest:
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
    *, repository: str, number: int, patch: ParsedPatch, incomplete: list[str] | None = None, **fields: Any
) -> PullRequest:
    files = [parsed.change for parsed in patch.files]
    if incomplete and IncompleteReason.SHALLOW_BOUNDARY in incomplete:
        fields["files_truncated"] = True  # the files are unknown, not "none"
    return PullRequest(
        repository=repository,
        number=number,
        url=f"https://github.com/{repository}/pull/{number}",
        additions=sum(f.additions for f in files),
        deletions=sum(f.deletions for f in files),
        files=files,
        changed_files_count=None if fields.get("files_truncated") else len(files),
        source="git",
        incomplete=incomplete or [],
        **fields,
    )


def _commit_record(commit: RawCommit) -> Commit:
    return Commit(
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


def _short_branch(repo: Path, ref: str) -> str | None:
    name = try_git_text(repo, ["rev-parse", "--abbrev-ref", ref])
    if not name or name == "HEAD":
        return None
    return name.removeprefix("origin/")
