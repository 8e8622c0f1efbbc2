"""A local git clone as prepared for one sync, before any record is built.

Where the sync starts (repository, branch, tip), what it resumes from (the saved state,
open refs) and the ``git log`` started early: everything `GitSource` needs before its first
record, in modules that do not load the record models (pydantic), so a command can start
git, or find there is nothing new, without paying for them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from prdigest.sources.git.collisions import list_subjects
from prdigest.sources.git.log_stream import LogStream
from prdigest.sources.git.pull_refs import PullRef, list_pull_refs, merged_pr_numbers
from prdigest.sources.git.runner import PendingGitText, try_git_text
from prdigest.sources.git.setup_calls import clone_setup
from prdigest.sources.protocol import SyncState

# Bump when the records this source builds change shape: a stored sync state from another
# format forces a full re-read instead of an incremental one.
STATE_FORMAT = 1


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
    # The same numbers by the evidence that chose the record's commit (collisions.KeptBy).
    collisions_kept_by: dict[str, list[int]] = field(default_factory=dict)
    # Files whose blobs the clone lacks, left out of the diffs (see missing_objects.py).
    files_without_contents: int = 0
    prs_without_contents: list[int] = field(default_factory=list)


class GitClone:
    """The clone a `GitSource` reads: its identity, its resume state, its early ``git log``."""

    name = "git"
    commit_each = False  # records come fast: written in batches while git works

    def __init__(self, path: Path, options: GitSyncOptions) -> None:
        self.path = path
        self.options = options
        setup = clone_setup(path, options.repository, options.branch)
        self.repo = setup.repo
        self.repository = setup.repository
        self.branch, self.tip, self.base_ref = setup.branch, setup.tip, setup.base_ref
        self.counters = GitSyncCounters()
        self.incremental = False
        self.previous_state: SyncState = {}  # from the last complete sync
        self._ref_heads: dict[str, str] = {}  # open refs: number -> head SHA, for the next sync
        self._log: LogStream | None = None  # started early by start_log
        self._subjects: PendingGitText | None = None  # the collisions' listing, likewise
        # A shallow clone's cut-off commits (None: a full clone), and the PRs marked for them.
        self.shallow = setup.shallow
        self.incomplete_numbers: list[int] = []

    def adopt(self, other: GitClone) -> None:
        """Become ``other`` (for `GitSource.taking_over`); ``other`` keeps no running git."""
        for name, value in vars(other).items():
            setattr(self, name, value)
        other._log, other._subjects = None, None

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

        On False the sync goes on as usual, nothing left changed but this: ``git log`` of
        the commits new since ``state`` is started, so git works while the store loads (the
        sync uses it only if it resumes from the same state, see `start_log`).
        """
        if not self.complete or not state:
            return False
        self.previous_state = dict(state)
        revision_range = self._log_range()
        if revision_range is None and next(self._open_refs(), None) is None and kept(self.sync_state()):
            return True
        self.previous_state, self.incremental, self._ref_heads = {}, False, {}
        self.counters.open_refs = 0
        if revision_range is not None:
            self.start_log(revision_range)
        return False

    def start_log(self, revision_range: str | None = None) -> None:
        """Start ``git log`` now, while the caller still prepares: over the whole history,
        or ``revision_range``.

        For a sync known to read everything (a new database, ``--full``): git then works
        while the database is created. Used only if the range turns out to be the same.
        """
        if self._log is None:
            self._log = LogStream(self.repo, revision_range or self.tip, self._log_extra())
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
