"""The filter form's counts (risk tags, modules) and the repository list, kept off the request path.

Counting labels walks every PR of a repository (~300 ms at 100,000 PRs), so the counts are
computed once when the app starts and then refreshed by a background thread every
``facet_ttl_seconds``; requests read the last snapshot. A repository the snapshot does not know
yet (added since the last refresh) is counted on demand once and remembered.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field

from prdigest.store import read_models
from prdigest.store.read_models import RepositoryRow
from prdigest.store.store import Store
from prdigest.web.schemas import FacetValue

# (risk tags, modules) as the feed page shows them.
Facets = tuple[list[FacetValue], list[FacetValue]]

_LOG = logging.getLogger(__name__)


@dataclass(frozen=True)
class FacetSnapshot:
    by_repository: dict[str, Facets] = field(default_factory=dict)
    repositories: list[RepositoryRow] | None = None


class FacetRefresher:
    """Holds the latest `FacetSnapshot`; `start` fills it and keeps it fresh in a daemon thread."""

    def __init__(self, store: Store, interval_seconds: float) -> None:
        self._store = store
        self._interval = interval_seconds
        self._snapshot = FacetSnapshot()
        self._version = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def refresh(self) -> None:
        """Recount everything now (one query for the labels, one for the repositories)."""
        counted = read_models.facets_by_repository(self._store)
        snapshot = FacetSnapshot(
            {name: _as_values(found) for name, found in counted.items()}, read_models.list_repositories(self._store)
        )
        with self._lock:
            if snapshot != self._snapshot:
                self._snapshot = snapshot
                self._version += 1

    @property
    def version(self) -> int:
        """Changes whenever the counts a page may show change (part of the page-cache key)."""
        with self._lock:
            return self._version

    def start(self) -> None:
        """Fill the snapshot (blocking: call before serving) and start the refresh thread."""
        self.refresh()
        if self._thread is None and self._interval > 0:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="prdigest-facets", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                self.refresh()
            except Exception:
                _LOG.warning("refreshing the filter counts failed", exc_info=True)

    def facets(self, repository: str) -> Facets:
        with self._lock:
            found = self._snapshot.by_repository.get(repository)
        if found is not None:
            return found
        found = _as_values(read_models.facets(self._store, repository))  # NotFound for an unknown repository
        with self._lock:
            self._snapshot = FacetSnapshot(
                {**self._snapshot.by_repository, repository: found}, self._snapshot.repositories
            )
            self._version += 1
        return found

    def repositories(self) -> list[RepositoryRow]:
        with self._lock:
            rows = self._snapshot.repositories
        if rows is not None:
            return rows
        rows = read_models.list_repositories(self._store)
        with self._lock:
            self._snapshot = FacetSnapshot(self._snapshot.by_repository, rows)
            self._version += 1
        return rows


def _as_values(found: read_models.Facets) -> Facets:
    return (
        [FacetValue(value=c.value, count=c.count) for c in found.risks],
        [FacetValue(value=c.value, count=c.count) for c in found.modules],
    )
