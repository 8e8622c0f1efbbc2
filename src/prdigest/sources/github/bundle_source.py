"""JSON bundles on disk (docs/bundle-format.md) as a `prdigest.sources.protocol.Source`.

Every bundle is validated when the source is made, before anything is written: one bad file
imports nothing. Bundles may hold several repositories and carry no cursor, so the source
keeps no resume state.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from prdigest.models.pullrequest import PullRequest
from prdigest.sources.github.bundle import LoadedBundle, load_bundles, resolve_duplicates
from prdigest.sources.protocol import StoredLookup, SyncState, nothing_stored


class BundleSource:
    """``BundleSource(paths)`` raises `BundleError` listing every bad file; else yields their records."""

    name = "bundles"
    repository = None
    commit_each = False

    def __init__(self, paths: Sequence[Path]) -> None:
        self.loaded: list[LoadedBundle] = load_bundles(paths)
        # One bundle per PR: repeats are resolved here and reported by the caller.
        self.unique, self.duplicates = resolve_duplicates(self.loaded)

    def notes(self) -> list[str]:
        """What the user should be told: each bundle's own notes, then every repeat dropped."""
        found = [note for item in self.loaded for note in item.notes]
        return found + [duplicate.note() for duplicate in self.duplicates]

    def pull_requests(self, state: SyncState, stored: StoredLookup = nothing_stored) -> Iterator[PullRequest]:
        return (item.record for item in self.unique)

    def resume_state(self) -> SyncState | None:
        return None
