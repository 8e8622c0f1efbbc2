"""What every source of pull requests offers: records since a cursor, and the cursor to resume from.

A source only reads (a clone, an API, files) and yields `PullRequest` records; writing them,
and saving the resume state it hands back, is the job of `prdigest.pipeline.sync`. So a new
source is one class with these members, and it never imports the store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the models (pydantic) are loaded by what builds records, not by the names
    from prdigest.models.pullrequest import PullRequest

# What a source saved after its last complete run (JSON-able; {} when there is none).
SyncState = dict[str, Any]
# The stored record of (repository, number), or None: lets a source skip re-fetching a PR
# whose stored record is already current without knowing where records are kept.
StoredLookup = Callable[[str, int], "PullRequest | None"]


def nothing_stored(_repository: str, _number: int) -> None:
    """A `StoredLookup` for a source read on its own (tests, dry runs): nothing is stored."""
    return None


class Source(Protocol):
    """``for pr in source.pull_requests(state, stored): write(pr)``, then save ``resume_state()``."""

    @property
    def name(self) -> str:
        """The key its resume state is saved under, per repository (``git``, ``github``)."""
        ...

    @property
    def repository(self) -> str | None:
        """OWNER/NAME whose resume state it reads and writes; None: it keeps none (bundles)."""
        ...

    @property
    def commit_each(self) -> bool:
        """True when each record costs network requests: it is then committed as soon as it
        arrives, so an interruption (rate limit, network) keeps everything fetched. False lets
        records be written in batches overlapping the source's work."""
        ...

    def pull_requests(self, state: SyncState, stored: StoredLookup) -> Iterator[PullRequest]:
        """The records new or changed since ``state`` (the last saved resume state)."""
        ...

    def resume_state(self) -> SyncState | None:
        """After the records are all read: the state to save for the next run, or None to keep
        the saved one (a partial run: ``--limit``, ``--since``)."""
        ...
