"""``publish --jobs``: worker processes that make PRs' pages (offline narration only).

A worker is sent a page of PR numbers, opens the database itself, narrates, builds and
writes each PR's pages and stores its new narratives, and sends back what the feeds, the
index and the stamps need (`publish_pages.PRPages`), or why a PR could not be written. The
main process makes pages too (``--jobs 2`` is it and one worker), then writes the feeds,
the index and the stamps. Pages are dealt out in turn, so each gets early and late PRs
alike (the late ones are usually the bigger), and shared out again as they are asked for.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from prdigest.errors import StoreError
from prdigest.pipeline.publish_pages import PRPages
from prdigest.pipeline.worker_pool import run_pages
from prdigest.store.store import Store
from prdigest.words import Lang

# PRs per page sent to a worker: small, so the pages dealt out even out the workers' loads.
WORKER_PAGE_SIZE = 8


@dataclass(frozen=True)
class PageTask:
    """What every page of a publish shares: the database, the repository, the folder, the
    languages and the code stamp."""

    url: str
    repository: str
    out: str
    languages: list[Lang]
    code: str


class PublishWorker:
    """What a publish worker process runs (`worker_pool.PageWorker`)."""

    def __init__(self, task: PageTask, store: Store | None = None) -> None:
        self.task = task
        self.store = store  # in a worker: opened at its first page
        self.owned = store is None  # closed by this worker

    def page(self, numbers: list[int]) -> list[tuple[int, PRPages | str]]:
        from prdigest.pipeline.publish_pages import make_page

        if self.store is None:
            self.store = Store.open(self.task.url, create=False, read_only_ok=True)
        task = self.task
        out = Path(task.out)
        return make_page(self.store, task.repository, numbers, out, task.languages, task.code)

    def close(self) -> None:
        if self.store is not None and self.owned:
            self.store.close()


def make_in_workers(
    store: Store, task: PageTask, numbers: Sequence[int], jobs: int
) -> Generator[tuple[int, PRPages | str], None, None]:
    """(number, its pages or why not) for every PR, made by this process and ``jobs - 1``
    worker processes, in the order they finish. A database failure in a worker raises
    `StoreError` here."""
    pages = [list(numbers[i : i + WORKER_PAGE_SIZE]) for i in range(0, len(numbers), WORKER_PAGE_SIZE)]
    runs = [pages[index::jobs] for index in range(jobs)]
    # This process makes pages too, with its open store: one worker process fewer.
    here = PublishWorker(task, store)
    results = run_pages(PublishWorker(task), runs, name="publish", error=StoreError, local=here)
    with closing(results):
        for _page, made in results:
            yield from made
