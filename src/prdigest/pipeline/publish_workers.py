"""``publish --jobs``: worker processes that make PRs' pages (offline narration only).

A worker is sent a page of PR numbers, opens the database itself, narrates, builds and
writes each PR's pages and stores its new narratives, and sends back what the feeds, the
index and the stamps need (`publish_pages.PRPages`), or why a PR could not be written; the
main process writes the feeds, the index and the stamps. Pages are dealt out in turn, so
each worker gets early and late PRs alike (the late ones are usually the bigger).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prdigest.errors import StoreError
from prdigest.pipeline.publish_pages import PRPages
from prdigest.pipeline.worker_pool import run_pages
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

    def __init__(self, task: PageTask) -> None:
        self.task = task
        self.store: Any = None  # opened in the worker, at its first page

    def page(self, numbers: list[int]) -> list[tuple[int, PRPages | str]]:
        from prdigest.pipeline.publish_pages import pages_or_why
        from prdigest.store.store import Store

        if self.store is None:
            self.store = Store.open(self.task.url, create=False, read_only_ok=True)
        task = self.task
        out = Path(task.out)
        return [
            (number, pages_or_why(self.store, task.repository, number, out, task.languages, None, code=task.code))
            for number in numbers
        ]

    def close(self) -> None:
        if self.store is not None:
            self.store.close()


def make_in_workers(
    task: PageTask, numbers: Sequence[int], jobs: int
) -> Generator[tuple[int, PRPages | str], None, None]:
    """(number, its pages or why not) for every PR, from ``jobs`` worker processes, in the
    order they finish. A database failure in a worker raises `StoreError` here."""
    pages = [list(numbers[i : i + WORKER_PAGE_SIZE]) for i in range(0, len(numbers), WORKER_PAGE_SIZE)]
    runs = [pages[index::jobs] for index in range(jobs)]
    results = run_pages(PublishWorker(task), runs, name="publish", error=StoreError)
    with closing(results):
        for _page, made in results:
            yield from made
